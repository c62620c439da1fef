import { type LiveWrite, merge } from './live-writer';

const write = (n: number, extra: Partial<LiveWrite> = {}): LiveWrite => ({
  snapshotJson: `{"n":${n}}`,
  stateJson: `{"s":${n}}`,
  seq: n,
  ...extra,
});

describe('merge of pending live writes', () => {
  it('keeps the newest snapshot and status', () => {
    expect(merge(write(1, { liveStatus: 'STARTED' }), write(2))).toEqual(write(2, { liveStatus: 'STARTED' }));
    expect(merge(write(1, { liveStatus: 'STARTED' }), write(2, { liveStatus: 'FINISHED' }))).toMatchObject({
      liveStatus: 'FINISHED',
      seq: 2,
    });
  });

  it('never loses nor replaces a frozen result', () => {
    const merged = merge(
      write(1, { halfTimeJson: '{"ht":1}' }),
      write(2, { halfTimeJson: '{"ht":2}', fullTimeJson: '{"ft":2}' }),
    );
    expect(merged).toMatchObject({
      halfTimeJson: '{"ht":1}',
      fullTimeJson: '{"ft":2}',
      snapshotJson: '{"n":2}',
    });
  });

  it('passes either side through when the other is absent', () => {
    expect(merge(undefined, write(3))).toEqual(write(3));
    expect(merge(write(3), undefined)).toEqual(write(3));
  });
});
