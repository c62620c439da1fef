import type { AuthFailure } from '@app/auth';
import { oddsAuthError } from './auth-messages';

describe('oddsAuthError', () => {
  it.each<[AuthFailure, string]>([
    [{ kind: 'missing_key' }, 'invalid or inactive API key'],
    [{ kind: 'invalid_key', reason: 'unknown' }, 'invalid or inactive API key'],
    [{ kind: 'invalid_key', reason: 'disabled' }, 'invalid or inactive API key'],
    [{ kind: 'invalid_key', reason: 'expired' }, 'invalid or inactive API key'],
    [{ kind: 'missing_scope', mode: 'all', scopes: ['odds'] }, 'missing required scope: odds'],
    [{ kind: 'sportsbook_not_granted', book: 'book' }, 'API key not permitted for sportsbook: book'],
    [{ kind: 'sport_not_granted', sport: 29 }, 'API key not permitted for sport 29'],
    [{ kind: 'backend_unavailable' }, 'auth backend unavailable'],
  ])('words %j as %j', (failure, text) => {
    expect(oddsAuthError(failure)).toBe(text);
  });

  it('names the book and sport it was given', () => {
    expect(oddsAuthError({ kind: 'sportsbook_not_granted', book: 'pinnacle' })).toBe(
      'API key not permitted for sportsbook: pinnacle',
    );
    expect(oddsAuthError({ kind: 'sport_not_granted', sport: 4 })).toBe('API key not permitted for sport 4');
  });

  it('lists several missing scopes', () => {
    expect(oddsAuthError({ kind: 'missing_scope', mode: 'all', scopes: ['odds', 'fixtures'] })).toBe(
      'missing required scope: odds, fixtures',
    );
  });
});
