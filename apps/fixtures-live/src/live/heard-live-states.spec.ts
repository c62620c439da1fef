import { newerSnapshot } from './heard-live-states';

const at = (text: string, seq?: number, prevSeq: number | null = null) => ({
  text,
  position: seq === undefined ? null : { seq, prevSeq },
});

describe('newerSnapshot', () => {
  it('takes a state heard after the stored one, which PostgreSQL does not hold yet', () => {
    expect(newerSnapshot(at('stored', 10), at('heard', 12, 10))).toEqual(at('heard', 12, 10));
  });

  it('takes the heard state of a match with nothing stored yet', () => {
    expect(newerSnapshot(null, at('heard', 3))).toEqual(at('heard', 3));
  });

  it('keeps the stored state when it is as new or newer', () => {
    expect(newerSnapshot(at('stored', 12, 10), at('heard', 12, 10))).toEqual(at('stored', 12, 10));
    expect(newerSnapshot(at('stored', 14), at('heard', 12))).toEqual(at('stored', 14));
  });

  it('keeps the stored state when nothing with a position was heard', () => {
    expect(newerSnapshot(at('stored', 10), undefined)).toEqual(at('stored', 10));
    expect(newerSnapshot(at('stored', 10), at('heard'))).toEqual(at('stored', 10));
    expect(newerSnapshot(null, undefined)).toBeNull();
  });

  it('keeps a state stored while the change log refused it', () => {
    expect(newerSnapshot(at('stored'), at('heard', 12))).toEqual(at('stored'));
  });
});
