import { type AuthFailure, AuthError, authStatus } from './auth-failure';

const FAILURES: ReadonlyArray<[AuthFailure, number]> = [
  [{ kind: 'missing_key' }, 401],
  [{ kind: 'invalid_key', reason: 'unknown' }, 401],
  [{ kind: 'invalid_key', reason: 'disabled' }, 401],
  [{ kind: 'invalid_key', reason: 'expired' }, 401],
  [{ kind: 'missing_scope', mode: 'all', scopes: ['odds'] }, 403],
  [{ kind: 'missing_scope', mode: 'any', scopes: ['live_scores', 'final_scores'] }, 403],
  [{ kind: 'sportsbook_not_granted', book: 'secret-book' }, 403],
  [{ kind: 'sport_not_granted', sport: 4242 }, 403],
  [{ kind: 'backend_unavailable' }, 503],
];

describe('authStatus', () => {
  it.each(FAILURES)('maps %j to %i', (failure, status) => {
    expect(authStatus(failure)).toBe(status);
  });
});

describe('AuthError', () => {
  it.each(FAILURES)('carries the failure %j and its status %i', (failure, status) => {
    const error = new AuthError(failure);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('AuthError');
    expect(error.failure).toBe(failure);
    expect(error.status).toBe(status);
  });

  it.each(FAILURES.map(([failure]) => [failure]))('names only the kind in its message: %j', (failure) => {
    const error = new AuthError(failure);
    expect(error.message).toBe(`authentication failed: ${failure.kind}`);
  });

  it('keeps details of the failure out of its message', () => {
    const messages = [
      new AuthError({ kind: 'sportsbook_not_granted', book: 'secret-book' }),
      new AuthError({ kind: 'sport_not_granted', sport: 4242 }),
      new AuthError({ kind: 'missing_scope', mode: 'all', scopes: ['live_scores_statistics'] }),
      new AuthError({ kind: 'invalid_key', reason: 'expired' }),
    ].map((error) => error.message);
    for (const message of messages) {
      expect(message).not.toMatch(/secret-book|4242|live_scores_statistics|expired/);
    }
  });
});
