import { HeldEncodings } from './held-encodings';

describe('HeldEncodings', () => {
  afterEach(() => jest.useRealTimers());

  it('builds once for a state and again for another, per match', () => {
    const held = new HeldEncodings<{ state: number }>(1000);
    let builds = 0;
    const encode = (state: number) => () => {
      builds++;
      return { state };
    };
    const first = held.get(1, (h) => h.state === 7, encode(7));
    expect(held.get(1, (h) => h.state === 7, encode(7))).toBe(first);
    expect(held.get(2, (h) => h.state === 7, encode(7))).not.toBe(first);
    const changed = held.get(1, (h) => h.state === 8, encode(8));
    expect(changed).toEqual({ state: 8 });
    expect(builds).toBe(3);
    held.clear();
  });

  it('lets everything go once the first has been held its time', () => {
    jest.useFakeTimers();
    const held = new HeldEncodings<string>(1000);
    held.get(
      1,
      () => true,
      () => 'a',
    );
    jest.advanceTimersByTime(500);
    held.get(
      2,
      () => true,
      () => 'b',
    );
    expect(held.size).toBe(2);
    jest.advanceTimersByTime(500);
    expect(held.size).toBe(0);
    expect(
      held.get(
        1,
        () => true,
        () => 'c',
      ),
    ).toBe('c');
    held.clear();
  });

  it('starts afresh rather than hold more than its limit', () => {
    const held = new HeldEncodings<number>(1000, 2);
    held.get(
      1,
      () => true,
      () => 1,
    );
    held.get(
      2,
      () => true,
      () => 2,
    );
    expect(held.size).toBe(2);
    held.get(
      3,
      () => true,
      () => 3,
    );
    expect(held.size).toBe(1);
    expect(
      held.get(
        1,
        () => true,
        () => 10,
      ),
    ).toBe(10);
    held.clear();
  });
});
