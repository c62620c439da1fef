import type { AuthFailure } from '@app/auth';

/** How fixtures-live words an auth outcome in its `detail` field. */
export function fixturesAuthDetail(failure: AuthFailure): string {
  switch (failure.kind) {
    case 'missing_key':
      return 'missing API key: send it in the X-API-Key header';
    case 'invalid_key':
      return 'invalid or inactive API key';
    case 'missing_scope':
      return failure.mode === 'any'
        ? `missing required scope: one of ${failure.scopes.join(', ')}`
        : `missing required scope: ${failure.scopes.join(', ')}`;
    case 'sportsbook_not_granted':
      return `API key not permitted for sportsbook: ${failure.book}`;
    case 'sport_not_granted':
      return `API key not permitted for sport ${failure.sport}`;
    case 'backend_unavailable':
      return 'auth backend unavailable';
  }
}
