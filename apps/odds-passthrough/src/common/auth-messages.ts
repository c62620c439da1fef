import type { AuthFailure } from '@app/auth';

/** The public error texts of odds-passthrough's authentication failures, word for word. */
export function oddsAuthError(failure: AuthFailure): string {
  switch (failure.kind) {
    case 'missing_key':
    case 'invalid_key':
      return 'invalid or inactive API key';
    case 'missing_scope':
      return `missing required scope: ${failure.scopes.join(', ')}`;
    case 'sportsbook_not_granted':
      return `API key not permitted for sportsbook: ${failure.book}`;
    case 'sport_not_granted':
      return `API key not permitted for sport ${failure.sport}`;
    case 'backend_unavailable':
      return 'auth backend unavailable';
  }
}
