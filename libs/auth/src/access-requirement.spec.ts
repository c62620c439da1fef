import {
  type AccessRequirement,
  allOf,
  ANY_VALID_KEY,
  anyOf,
  decideAccess,
  sportsbookSportFailure,
} from './access-requirement';
import { type KeyRecord, Principal } from './key-record';
import { Scope } from './scopes';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

function principal(overrides: Partial<KeyRecord> = {}): Principal {
  return new Principal({
    keyId: 'key-1',
    accountId: 'account-1',
    scopes: [Scope.Fixtures],
    active: true,
    expiresAt: null,
    fixturesSports: [1],
    grants: {},
    ...overrides,
  });
}

function requires(...scopeRules: AccessRequirement['scopeRules']): AccessRequirement {
  return { scopeRules };
}

describe('allOf / anyOf', () => {
  it('build rules with their mode and scopes', () => {
    expect(allOf(Scope.Fixtures, Scope.Odds)).toEqual({ mode: 'all', scopes: ['fixtures', 'odds'] });
    expect(anyOf(Scope.LiveScores, Scope.FinalScores)).toEqual({
      mode: 'any',
      scopes: ['live_scores', 'final_scores'],
    });
  });
});

describe('decideAccess', () => {
  describe('validity', () => {
    it('refuses an unknown key', () => {
      expect(decideAccess(null, ANY_VALID_KEY, NOW)).toEqual({ kind: 'invalid_key', reason: 'unknown' });
    });

    it('refuses an inactive key as disabled', () => {
      expect(decideAccess(principal({ active: false }), ANY_VALID_KEY, NOW)).toEqual({
        kind: 'invalid_key',
        reason: 'disabled',
      });
    });

    it('accepts a key without expiry', () => {
      expect(decideAccess(principal({ expiresAt: null }), ANY_VALID_KEY, NOW)).toBeNull();
    });

    it('accepts a key 1 ms before it expires', () => {
      const key = principal({ expiresAt: new Date(NOW + 1) });
      expect(decideAccess(key, ANY_VALID_KEY, NOW)).toBeNull();
    });

    it('refuses a key at the exact instant of its expiry', () => {
      const key = principal({ expiresAt: new Date(NOW) });
      expect(decideAccess(key, ANY_VALID_KEY, NOW)).toEqual({ kind: 'invalid_key', reason: 'expired' });
    });

    it('refuses a key after its expiry', () => {
      const key = principal({ expiresAt: new Date(NOW - 60_000) });
      expect(decideAccess(key, ANY_VALID_KEY, NOW)).toEqual({ kind: 'invalid_key', reason: 'expired' });
    });

    it('reports a disabled key as disabled even when it has also expired', () => {
      const key = principal({ active: false, expiresAt: new Date(NOW - 1) });
      expect(decideAccess(key, ANY_VALID_KEY, NOW)).toEqual({ kind: 'invalid_key', reason: 'disabled' });
    });
  });

  describe('scopes', () => {
    it('passes an all-of rule when every scope is held', () => {
      const key = principal({ scopes: [Scope.Fixtures, Scope.LiveScores] });
      expect(decideAccess(key, requires(allOf(Scope.Fixtures, Scope.LiveScores)), NOW)).toBeNull();
    });

    it('reports only the scopes an all-of rule is missing', () => {
      const key = principal({ scopes: [Scope.Fixtures] });
      const rule = allOf(Scope.Fixtures, Scope.LiveScores, Scope.FinalScores);
      expect(decideAccess(key, requires(rule), NOW)).toEqual({
        kind: 'missing_scope',
        mode: 'all',
        scopes: ['live_scores', 'final_scores'],
      });
    });

    it('passes an any-of rule with either scope', () => {
      const rule = anyOf(Scope.LiveScores, Scope.FinalScores);
      expect(decideAccess(principal({ scopes: [Scope.LiveScores] }), requires(rule), NOW)).toBeNull();
      expect(decideAccess(principal({ scopes: [Scope.FinalScores] }), requires(rule), NOW)).toBeNull();
    });

    it("fails an any-of rule listing all of the rule's scopes", () => {
      const rule = anyOf(Scope.LiveScores, Scope.FinalScores);
      expect(decideAccess(principal({ scopes: [Scope.Fixtures] }), requires(rule), NOW)).toEqual({
        kind: 'missing_scope',
        mode: 'any',
        scopes: ['live_scores', 'final_scores'],
      });
    });

    it('requires every rule to hold', () => {
      const requirement = requires(allOf(Scope.Fixtures), anyOf(Scope.LiveScores, Scope.FinalScores));
      expect(
        decideAccess(principal({ scopes: [Scope.Fixtures, Scope.FinalScores] }), requirement, NOW),
      ).toBeNull();
      expect(decideAccess(principal({ scopes: [Scope.Fixtures] }), requirement, NOW)).toEqual({
        kind: 'missing_scope',
        mode: 'any',
        scopes: ['live_scores', 'final_scores'],
      });
      expect(decideAccess(principal({ scopes: [Scope.LiveScores] }), requirement, NOW)).toEqual({
        kind: 'missing_scope',
        mode: 'all',
        scopes: ['fixtures'],
      });
    });
  });

  describe('order of checks', () => {
    it('checks validity before scopes', () => {
      const requirement = requires(allOf(Scope.Odds));
      expect(decideAccess(principal({ active: false, scopes: [] }), requirement, NOW)).toEqual({
        kind: 'invalid_key',
        reason: 'disabled',
      });
      expect(decideAccess(principal({ expiresAt: new Date(NOW), scopes: [] }), requirement, NOW)).toEqual({
        kind: 'invalid_key',
        reason: 'expired',
      });
    });

    it('checks scopes before the sportsbook grant', () => {
      const requirement: AccessRequirement = { scopeRules: [allOf(Scope.Odds)], sportsbook: 'book' };
      expect(decideAccess(principal({ scopes: [], grants: {} }), requirement, NOW)).toEqual({
        kind: 'missing_scope',
        mode: 'all',
        scopes: ['odds'],
      });
    });
  });

  describe('sportsbook grant', () => {
    const oddsOn = (book: string): AccessRequirement => ({
      scopeRules: [allOf(Scope.Odds)],
      sportsbook: book,
    });

    it('refuses a key without a grant for the book, naming the book', () => {
      const key = principal({ scopes: [Scope.Odds], grants: {} });
      expect(decideAccess(key, oddsOn('pinnacle'), NOW)).toEqual({
        kind: 'sportsbook_not_granted',
        book: 'pinnacle',
      });
    });

    it('passes a key with a grant for the book', () => {
      const key = principal({ scopes: [Scope.Odds], grants: { pinnacle: [29] } });
      expect(decideAccess(key, oddsOn('pinnacle'), NOW)).toBeNull();
    });

    it('passes a grant with no sports (the book is granted, no sport is)', () => {
      const key = principal({ scopes: [Scope.Odds], grants: { pinnacle: [] } });
      expect(decideAccess(key, oddsOn('pinnacle'), NOW)).toBeNull();
    });

    it('does not apply a grant of one book to another', () => {
      const key = principal({ scopes: [Scope.Odds], grants: { pinnacle: [29] } });
      expect(decideAccess(key, oddsOn('bet365'), NOW)).toEqual({
        kind: 'sportsbook_not_granted',
        book: 'bet365',
      });
    });

    it('ignores grants when the requirement names no book', () => {
      expect(decideAccess(principal({ grants: {} }), ANY_VALID_KEY, NOW)).toBeNull();
    });
  });
});

describe('sportsbookSportFailure', () => {
  it('passes a granted sport', () => {
    expect(sportsbookSportFailure(principal({ grants: { pinnacle: [29, 33] } }), 'pinnacle', 33)).toBeNull();
  });

  it('refuses a sport that is not in the grant', () => {
    expect(sportsbookSportFailure(principal({ grants: { pinnacle: [29] } }), 'pinnacle', 33)).toEqual({
      kind: 'sport_not_granted',
      sport: 33,
    });
  });

  it('refuses every sport of a grant with no sports', () => {
    expect(sportsbookSportFailure(principal({ grants: { pinnacle: [] } }), 'pinnacle', 29)).toEqual({
      kind: 'sport_not_granted',
      sport: 29,
    });
  });

  it("does not apply one book's sports to another book", () => {
    const key = principal({ grants: { pinnacle: [29], bet365: [] } });
    expect(sportsbookSportFailure(key, 'bet365', 29)).toEqual({ kind: 'sport_not_granted', sport: 29 });
    expect(sportsbookSportFailure(key, 'unknown-book', 29)).toEqual({ kind: 'sport_not_granted', sport: 29 });
  });
});
