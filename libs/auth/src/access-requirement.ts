import type { AuthFailure } from './auth-failure';
import type { Principal } from './key-record';
import type { Scope } from './scopes';

export interface ScopeRule {
  readonly mode: 'all' | 'any';
  readonly scopes: readonly Scope[];
}

/** What a route or stream demands of a key beyond being valid. */
export interface AccessRequirement {
  /** Every rule must hold. */
  readonly scopeRules: readonly ScopeRule[];
  /** A sportsbook grant the key must hold (odds routes). */
  readonly sportsbook?: string;
}

export const ANY_VALID_KEY: AccessRequirement = { scopeRules: [] };

export function allOf(...scopes: Scope[]): ScopeRule {
  return { mode: 'all', scopes };
}

export function anyOf(...scopes: Scope[]): ScopeRule {
  return { mode: 'any', scopes };
}

/**
 * The whole decision for a key that was looked up (null: unknown), at `now`
 * (epoch ms). Order matters and follows both specifications: validity, then
 * scopes, then the sportsbook grant. A key stops being valid at the instant
 * of its `expires_at`.
 */
export function decideAccess(
  principal: Principal | null,
  requirement: AccessRequirement,
  now: number,
): AuthFailure | null {
  if (!principal) return { kind: 'invalid_key', reason: 'unknown' };
  if (!principal.active) return { kind: 'invalid_key', reason: 'disabled' };
  if (principal.expiresAt && now >= principal.expiresAt.getTime()) {
    return { kind: 'invalid_key', reason: 'expired' };
  }
  for (const rule of requirement.scopeRules) {
    const failure = checkScopeRule(principal, rule);
    if (failure) return failure;
  }
  if (requirement.sportsbook !== undefined && !principal.hasSportsbook(requirement.sportsbook)) {
    return { kind: 'sportsbook_not_granted', book: requirement.sportsbook };
  }
  return null;
}

function checkScopeRule(principal: Principal, rule: ScopeRule): AuthFailure | null {
  if (rule.mode === 'any') {
    return rule.scopes.some((scope) => principal.hasScope(scope))
      ? null
      : { kind: 'missing_scope', mode: 'any', scopes: rule.scopes };
  }
  const missing = rule.scopes.filter((scope) => !principal.hasScope(scope));
  return missing.length === 0 ? null : { kind: 'missing_scope', mode: 'all', scopes: missing };
}

/** For odds requests that name a sport (by `?sport=` or through a match). */
export function sportsbookSportFailure(
  principal: Principal,
  book: string,
  sport: number,
): AuthFailure | null {
  return principal.canSeeSportsbookSport(book, sport) ? null : { kind: 'sport_not_granted', sport };
}
