import { formatUtcSeconds, normalizeUtcSeconds } from './utc-time';

describe('utc time', () => {
  it('formats to whole seconds in UTC', () => {
    expect(formatUtcSeconds(new Date('2026-11-21T15:23:10.987Z'))).toBe('2026-11-21T15:23:10Z');
  });

  it('normalizes offsets and fractions, and refuses what is not a time', () => {
    expect(normalizeUtcSeconds('2026-11-21T16:23:10.5+01:00')).toBe('2026-11-21T15:23:10Z');
    expect(normalizeUtcSeconds('2026-11-21T15:23:10Z')).toBe('2026-11-21T15:23:10Z');
    expect(normalizeUtcSeconds('soon')).toBeNull();
  });
});
