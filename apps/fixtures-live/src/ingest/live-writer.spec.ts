import { batchRow, type LiveWrite, merge } from './live-writer';

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

describe('a row of a live write statement', () => {
  it('carries the serialised JSON as it is and leaves out what is absent', () => {
    const snapshotJson = '{"match_id":7,"home":"A \\"B\\"","score":[1,2]}';
    const row = batchRow(7, { snapshotJson, stateJson: '{"seq":3}', seq: 3 });
    expect(JSON.parse(row)).toEqual({
      match_id: 7,
      snapshot: { match_id: 7, home: 'A "B"', score: [1, 2] },
      upstream_state: { seq: 3 },
      seq: 3,
    });
    expect(row).toContain(`"snapshot":${snapshotJson}`);
  });

  it('carries a status, frozen results and a position when present', () => {
    const row = batchRow(7, {
      snapshotJson: '{}',
      stateJson: '{}',
      seq: 4,
      liveStatus: 'STARTED',
      halfTimeJson: '{"home":1}',
      fullTimeJson: '{"home":2}',
      changeSeq: 41,
      prevChangeSeq: null,
    });
    expect(JSON.parse(row)).toEqual({
      match_id: 7,
      snapshot: {},
      upstream_state: {},
      seq: 4,
      live_status: 'STARTED',
      half_time: { home: 1 },
      full_time: { home: 2 },
      change_seq: 41,
    });
  });
});
