import { ReconnectSchedule } from './reconnect-schedule';

describe('ReconnectSchedule', () => {
  const policy = { initialMs: 100, maxMs: 800, jitter: 0 };

  it('keeps one delay per attempt however often it is asked', () => {
    let now = 0;
    const schedule = new ReconnectSchedule(() => now, policy);
    expect(schedule.delay()).toBe(100);
    now = 50;
    expect(schedule.delay()).toBe(100);
    now = 100;
    expect(schedule.delay()).toBe(200);
    now = 250;
    expect(schedule.delay()).toBe(200);
  });

  it('grows to the ceiling and starts over after a reset', () => {
    let now = 0;
    const schedule = new ReconnectSchedule(() => now, policy);
    const seen: number[] = [];
    for (let i = 0; i < 6; i++) {
      const d = schedule.delay();
      seen.push(d);
      now += d;
    }
    expect(seen).toEqual([100, 200, 400, 800, 800, 800]);
    schedule.reset();
    expect(schedule.delay()).toBe(100);
  });
});
