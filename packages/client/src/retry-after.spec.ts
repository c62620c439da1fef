import { retryAfterMs } from './retry-after';

describe('retryAfterMs', () => {
  it('reads delta-seconds', () => {
    expect(retryAfterMs('1')).toBe(1_000);
    expect(retryAfterMs(' 30 ')).toBe(30_000);
  });

  it('reads an HTTP date relative to now, never negative', () => {
    const now = Date.parse('2026-11-21T15:00:00Z');
    expect(retryAfterMs('Sat, 21 Nov 2026 15:00:05 GMT', now)).toBe(5_000);
    expect(retryAfterMs('Sat, 21 Nov 2026 14:00:00 GMT', now)).toBe(0);
  });

  it('gives undefined for a missing or unreadable header', () => {
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs('-1')).toBeUndefined();
  });
});
