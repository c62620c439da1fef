import { formatClock, projectClockSeconds } from './clock';

describe('projectClockSeconds', () => {
  const asOf = '2026-11-21T15:30:00Z';
  const anchor = Date.parse(asOf);

  it('adds the wall time since as_of while the clock runs', () => {
    const clock = { minute: 23, second: 10, running: true, as_of: asOf };
    expect(projectClockSeconds(clock, anchor)).toBe(23 * 60 + 10);
    expect(projectClockSeconds(clock, anchor + 65_400)).toBe(23 * 60 + 10 + 65);
  });

  it('shows minute:second unchanged when stopped or without an anchor', () => {
    expect(projectClockSeconds({ minute: 45, second: 0, running: false, as_of: asOf }, anchor + 60_000)).toBe(
      2_700,
    );
    expect(projectClockSeconds({ minute: 0, second: 0, running: true }, anchor + 60_000)).toBe(0);
    expect(projectClockSeconds({ minute: 1, second: 2, running: true, as_of: 'not a date' }, anchor)).toBe(
      62,
    );
  });

  it('never goes backwards when the local clock is behind as_of', () => {
    expect(projectClockSeconds({ minute: 10, second: 0, running: true, as_of: asOf }, anchor - 5_000)).toBe(
      600,
    );
  });
});

describe('formatClock', () => {
  it('pads minutes and seconds', () => {
    expect(formatClock(0)).toBe('00:00');
    expect(formatClock(23 * 60 + 5)).toBe('23:05');
    expect(formatClock(121 * 60 + 59.9)).toBe('121:59');
  });
});
