import type { Scope } from './scopes';

/**
 * Every way authentication or authorisation can fail. The library decides the
 * outcome; each app renders it in its own error shape and words.
 */
export type AuthFailure =
  | { readonly kind: 'missing_key' }
  | { readonly kind: 'invalid_key'; readonly reason: 'unknown' | 'disabled' | 'expired' }
  | {
      readonly kind: 'missing_scope';
      readonly mode: 'all' | 'any';
      /** The scopes of the rule that failed; for `all`, only those the key lacks. */
      readonly scopes: readonly Scope[];
    }
  | { readonly kind: 'sportsbook_not_granted'; readonly book: string }
  | { readonly kind: 'sport_not_granted'; readonly sport: number }
  | { readonly kind: 'backend_unavailable' };

export type AuthStatus = 401 | 403 | 503;

export function authStatus(failure: AuthFailure): AuthStatus {
  switch (failure.kind) {
    case 'missing_key':
    case 'invalid_key':
      return 401;
    case 'missing_scope':
    case 'sportsbook_not_granted':
    case 'sport_not_granted':
      return 403;
    case 'backend_unavailable':
      return 503;
  }
}

/** Thrown by guards and handshakes; the apps' exception filters render it. */
export class AuthError extends Error {
  readonly status: AuthStatus;

  constructor(readonly failure: AuthFailure) {
    super(`authentication failed: ${failure.kind}`);
    this.name = 'AuthError';
    this.status = authStatus(failure);
  }
}
