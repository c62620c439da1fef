import { ManualClock } from '@app/clock';
import { CutoffAlarm } from './cutoff-alarm';

describe('CutoffAlarm', () => {
  let clock: ManualClock;
  let next: number | undefined;
  let checks: number[];
  let ready: boolean;
  let alarm: CutoffAlarm;

  /** Moves the injected clock and the timers together, as real time does. */
  const pass = (ms: number) => {
    clock.advance(ms);
    jest.advanceTimersByTime(ms);
  };

  beforeEach(() => {
    jest.useFakeTimers();
    clock = new ManualClock(Date.UTC(2026, 0, 1));
    next = undefined;
    checks = [];
    ready = true;
    alarm = new CutoffAlarm(clock, {
      nextCutoff: () => next,
      check: () => {
        checks.push(clock.now());
        if (ready && next !== undefined && next <= clock.now()) next = undefined;
        return ready;
      },
      capMs: 1000,
      retryMs: 200,
    });
  });

  afterEach(() => {
    alarm.stop();
    jest.useRealTimers();
  });

  it('rings once the cutoff has passed, not before, and not on a short period', () => {
    const cutoff = clock.now() + 300;
    next = cutoff;
    alarm.start();
    pass(300);
    expect(checks).toEqual([]);
    pass(1);
    expect(checks).toEqual([cutoff + 1]);
    pass(999);
    expect(checks).toHaveLength(1);
  });

  it('checks once per cap without a cutoff, so a clock moved by hand is seen within it', () => {
    alarm.start();
    pass(2000);
    expect(checks).toHaveLength(2);
    next = clock.now() + 60_000;
    clock.advance(61_000);
    jest.advanceTimersByTime(1000);
    expect(checks).toHaveLength(3);
    expect(next).toBeUndefined();
  });

  it('rings sooner when the book gains an earlier cutoff', () => {
    alarm.start();
    pass(100);
    next = clock.now() + 50;
    alarm.arm();
    pass(51);
    expect(checks).toHaveLength(1);
  });

  it('tries again soon while the book cannot be checked', () => {
    next = clock.now();
    ready = false;
    alarm.start();
    pass(1);
    expect(checks).toHaveLength(1);
    ready = true;
    pass(199);
    expect(checks).toHaveLength(1);
    pass(1);
    expect(checks).toHaveLength(2);
    expect(next).toBeUndefined();
  });

  it('checks at each recheck and leaves the cap timer unfired while rechecks come sooner', () => {
    alarm.start();
    for (let poll = 0; poll < 5; poll++) {
      pass(900);
      alarm.recheck();
    }
    expect(checks).toHaveLength(5);
    next = clock.now() + 60_000;
    clock.advance(61_000);
    alarm.recheck();
    expect(checks).toHaveLength(6);
    expect(next).toBeUndefined();
  });

  it('still rings on a cutoff that falls between rechecks', () => {
    alarm.start();
    pass(500);
    alarm.recheck();
    next = clock.now() + 300;
    alarm.arm();
    pass(301);
    expect(checks).toEqual([clock.now() - 301, clock.now()]);
  });

  it('leaves no timer once stopped', () => {
    alarm.start();
    alarm.stop();
    alarm.arm();
    alarm.recheck();
    expect(jest.getTimerCount()).toBe(0);
    expect(checks).toEqual([]);
  });
});
