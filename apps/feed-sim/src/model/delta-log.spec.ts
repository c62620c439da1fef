import { DeltaLog } from './delta-log';

describe('DeltaLog', () => {
  it('answers the distinct refs changed after a cursor, latest change last', () => {
    const log = new DeltaLog(100);
    log.record(101, 'a');
    log.record(102, 'b');
    log.record(103, 'a');
    expect(log.since(100, 103)).toEqual({ kind: 'changes', refs: ['b', 'a'] });
    expect(log.since(102, 103)).toEqual({ kind: 'changes', refs: ['a'] });
    expect(log.since(103, 103)).toEqual({ kind: 'changes', refs: [] });
    expect(log.last).toBe(103);
  });

  it('forgets old entries: a cursor before the oldest remembered one is gone', () => {
    const log = new DeltaLog(100);
    log.record(101, 'a');
    log.record(102, 'b');
    log.record(103, 'c');
    log.forgetUpTo(102);
    expect(log.oldest).toBe(102);
    expect(log.since(101, 103)).toEqual({ kind: 'gone' });
    expect(log.since(102, 103)).toEqual({ kind: 'changes', refs: ['c'] });
  });

  it('treats cursors from before the start, from the future or not integers as gone', () => {
    const log = new DeltaLog(100);
    log.record(101, 'a');
    expect(log.since(99, 101)).toEqual({ kind: 'gone' });
    expect(log.since(102, 101)).toEqual({ kind: 'gone' });
    expect(log.since(Number.NaN, 101)).toEqual({ kind: 'gone' });
  });
});
