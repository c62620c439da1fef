import type { AuthFailure } from '@app/auth';
import { fixturesAuthDetail } from './auth-messages';

const EVERY_KIND: readonly AuthFailure[] = [
  { kind: 'missing_key' },
  { kind: 'invalid_key', reason: 'unknown' },
  { kind: 'invalid_key', reason: 'disabled' },
  { kind: 'invalid_key', reason: 'expired' },
  { kind: 'missing_scope', mode: 'all', scopes: ['fixtures'] },
  { kind: 'missing_scope', mode: 'any', scopes: ['live_scores', 'final_scores'] },
  { kind: 'sportsbook_not_granted', book: 'pinnacle' },
  { kind: 'sport_not_granted', sport: 29 },
  { kind: 'backend_unavailable' },
];

describe('fixturesAuthDetail', () => {
  it.each(EVERY_KIND.map((failure) => [failure]))('words %j without any key material', (failure) => {
    const detail = fixturesAuthDetail(failure);
    expect(detail.trim().length).toBeGreaterThan(0);
    expect(detail).not.toContain('sk_');
  });

  it('tells a missing key apart from an invalid one', () => {
    const missing = fixturesAuthDetail({ kind: 'missing_key' });
    expect(missing).toMatch(/missing API key/i);
    expect(missing).toContain('X-API-Key');
    expect(fixturesAuthDetail({ kind: 'invalid_key', reason: 'unknown' })).toBe(
      'invalid or inactive API key',
    );
  });

  it('does not reveal why a key is invalid', () => {
    const texts = (['unknown', 'disabled', 'expired'] as const).map((reason) =>
      fixturesAuthDetail({ kind: 'invalid_key', reason }),
    );
    expect(new Set(texts).size).toBe(1);
  });

  it('names the missing scope of an all-of rule', () => {
    expect(
      fixturesAuthDetail({ kind: 'missing_scope', mode: 'all', scopes: ['live_scores_statistics'] }),
    ).toBe('missing required scope: live_scores_statistics');
  });

  it('names every missing scope of an all-of rule', () => {
    const detail = fixturesAuthDetail({
      kind: 'missing_scope',
      mode: 'all',
      scopes: ['fixtures', 'live_scores'],
    });
    expect(detail).toContain('fixtures');
    expect(detail).toContain('live_scores');
    expect(detail).not.toMatch(/one of/);
  });

  it('names every scope of a failed any-of rule as alternatives', () => {
    expect(
      fixturesAuthDetail({ kind: 'missing_scope', mode: 'any', scopes: ['live_scores', 'final_scores'] }),
    ).toBe('missing required scope: one of live_scores, final_scores');
  });

  it('names the book and sport', () => {
    expect(fixturesAuthDetail({ kind: 'sportsbook_not_granted', book: 'pinnacle' })).toContain('pinnacle');
    expect(fixturesAuthDetail({ kind: 'sport_not_granted', sport: 29 })).toMatch(/\b29\b/);
  });

  it('says when the auth backend is unavailable', () => {
    expect(fixturesAuthDetail({ kind: 'backend_unavailable' })).toBe('auth backend unavailable');
  });
});
