import { readFile } from 'node:fs';
import { countParts } from '../../../../test/support/parts';
import { drain, inParts, mapInParts, nextTurn } from './work-in-parts';

function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** Runs `body` inside an I/O callback, where the loop goes on to its check phase before its timers. */
function fromIoCallback<T>(body: () => Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    readFile(__filename, () => {
      body().then(resolve, reject);
    });
  });
}

describe('nextTurn', () => {
  it('lets a due timer run first when called from an I/O callback', async () => {
    const fired = await fromIoCallback(async () => {
      let timerRan = false;
      setTimeout(() => (timerRan = true), 0);
      spin(5);
      await nextTurn();
      return timerRan;
    });
    expect(fired).toBe(true);
  });

  // From a timer callback, Node re-arms its timer a millisecond past the latest clock
  // reading; another timer set after the spin reads it, as other code often does in CI.
  it('lets a timer that came due in a timer callback run by the turn after a part of a millisecond or more', async () => {
    const fired = await new Promise<boolean>((resolve) => {
      setTimeout(() => {
        let timerRan = false;
        setTimeout(() => (timerRan = true), 0);
        spin(5);
        clearTimeout(setTimeout(() => undefined, 1000));
        void (async () => {
          await nextTurn();
          spin(2);
          await nextTurn();
          resolve(timerRan);
        })();
      }, 0);
    });
    expect(fired).toBe(true);
  });
});

describe('mapInParts', () => {
  it('maps every item in order and yields between parts of `every` items', () => {
    const items = Array.from({ length: 25 }, (_, i) => i);
    const { yields, value } = countParts(mapInParts(items, 10, (i) => i * 2));
    expect(value).toEqual(items.map((i) => i * 2));
    expect(yields).toBe(2);
  });

  it('never yields for a list that fits in one part', () => {
    expect(countParts(mapInParts([1, 2, 3], 3, String))).toEqual({ yields: 0, value: ['1', '2', '3'] });
    expect(countParts(mapInParts([], 3, String))).toEqual({ yields: 0, value: [] });
  });
});

describe('drain and inParts', () => {
  function* counted(): Generator<void, string, void> {
    yield;
    yield;
    return 'done';
  }

  it('drain runs the parts in one go', () => {
    expect(drain(counted())).toBe('done');
  });

  it('inParts lets a due timer run between two parts', async () => {
    let timerRan = false;
    let seenBetween = false;
    function* watched(): Generator<void, void, void> {
      setTimeout(() => (timerRan = true), 0);
      spin(5);
      yield;
      seenBetween = timerRan;
    }
    await fromIoCallback(() => inParts(watched()));
    expect(seenBetween).toBe(true);
  });
});
