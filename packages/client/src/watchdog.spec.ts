import { silenceLimitMs, Watchdog } from './watchdog';

describe('Watchdog', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('fires once after the silence limit without a kick', () => {
    const onSilence = jest.fn();
    const watchdog = new Watchdog(3_000, onSilence);
    watchdog.kick();
    jest.advanceTimersByTime(2_999);
    expect(onSilence).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(onSilence).toHaveBeenCalledTimes(1);
    expect(watchdog.armed).toBe(false);
    jest.advanceTimersByTime(10_000);
    expect(onSilence).toHaveBeenCalledTimes(1);
  });

  it('starts the wait again on every kick', () => {
    const onSilence = jest.fn();
    const watchdog = new Watchdog(1_000, onSilence);
    watchdog.kick();
    for (let i = 0; i < 10; i++) {
      jest.advanceTimersByTime(900);
      watchdog.kick();
    }
    expect(onSilence).not.toHaveBeenCalled();
  });

  it('never fires once stopped', () => {
    const onSilence = jest.fn();
    const watchdog = new Watchdog(1_000, onSilence);
    watchdog.kick();
    watchdog.stop();
    jest.advanceTimersByTime(5_000);
    expect(onSilence).not.toHaveBeenCalled();
  });

  it('allows three heartbeat periods of silence', () => {
    expect(silenceLimitMs(1_000)).toBe(3_000);
  });
});
