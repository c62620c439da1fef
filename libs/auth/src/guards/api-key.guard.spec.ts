import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { ManualClock } from '@app/clock';
import type { NatsLink } from '@app/messaging';
import { ANY_VALID_KEY, allOf } from '../access-requirement';
import { hashApiKey } from '../api-key';
import { type AuthFailure, AuthError } from '../auth-failure';
import { AuthService } from '../auth.service';
import {
  Public,
  RequiresAnyScope,
  RequiresScopes,
  RequiresSportsbook,
} from '../decorators/access.decorators';
import { type KeyRecord, Principal } from '../key-record';
import { KeyRegistry } from '../key-registry';
import type { KeyStore } from '../key-store';
import { Scope } from '../scopes';
import { ApiKeyGuard } from './api-key.guard';

const NOW = Date.UTC(2026, 0, 1);

const KEYS = {
  fixtures: 'sk_fixtures-only-key-000000000000',
  fixturesLive: 'sk_fixtures-and-live-key-00000000',
  liveOnly: 'sk_live-scores-only-key-000000000',
  finalScores: 'sk_final-scores-key-0000000000000',
  odds: 'sk_odds-pinnacle-key-000000000000',
  oddsNoGrant: 'sk_odds-without-grant-key-000000',
  expired: 'sk_expired-key-00000000000000000',
  unknown: 'sk_nobody-has-this-key-000000000',
} as const;

function record(keyId: string, overrides: Partial<KeyRecord> = {}): KeyRecord {
  return {
    keyId,
    accountId: 'account-1',
    scopes: [],
    active: true,
    expiresAt: null,
    fixturesSports: [1],
    grants: {},
    ...overrides,
  };
}

const RECORDS: ReadonlyMap<string, KeyRecord> = new Map([
  [hashApiKey(KEYS.fixtures), record('fixtures', { scopes: [Scope.Fixtures] })],
  [hashApiKey(KEYS.fixturesLive), record('fixtures-live', { scopes: [Scope.Fixtures, Scope.LiveScores] })],
  [hashApiKey(KEYS.liveOnly), record('live-only', { scopes: [Scope.LiveScores] })],
  [hashApiKey(KEYS.finalScores), record('final-scores', { scopes: [Scope.FinalScores] })],
  [hashApiKey(KEYS.odds), record('odds', { scopes: [Scope.Odds], grants: { pinnacle: [29] } })],
  [hashApiKey(KEYS.oddsNoGrant), record('odds-no-grant', { scopes: [Scope.Odds], grants: { bet365: [29] } })],
  [
    hashApiKey(KEYS.expired),
    record('expired', { scopes: [Scope.Fixtures, Scope.LiveScores], expiresAt: new Date(NOW) }),
  ],
]);

@RequiresSportsbook('pinnacle')
class OddsController {
  @RequiresScopes(Scope.Odds)
  markets(): string {
    return 'markets';
  }
}

class FixturesController {
  @Public()
  health(): string {
    return 'ok';
  }

  anyKey(): string {
    return 'any';
  }

  @RequiresScopes(Scope.Fixtures)
  fixtures(): string {
    return 'fixtures';
  }

  @RequiresScopes(Scope.Fixtures)
  @RequiresScopes(Scope.LiveScores)
  live(): string {
    return 'live';
  }

  @RequiresAnyScope(Scope.LiveScores, Scope.FinalScores)
  scores(): string {
    return 'scores';
  }
}

@RequiresScopes(Scope.Fixtures)
class ScoresController {
  @RequiresAnyScope(Scope.LiveScores, Scope.FinalScores)
  scores(): string {
    return 'scores';
  }
}

@Public()
class RouteListController {
  @RequiresScopes(Scope.Odds)
  routes(): string {
    return 'routes';
  }
}

interface TestRequest {
  headers: IncomingHttpHeaders;
  query: Record<string, unknown>;
  principal?: Principal;
}

function setup() {
  const findByHash = jest.fn((hash: string) => Promise.resolve(RECORDS.get(hash) ?? null));
  const nats = { onReconnect: () => () => undefined };
  const clock = new ManualClock(NOW);
  const registry = new KeyRegistry(
    { findByHash } as unknown as KeyStore,
    nats as unknown as NatsLink,
    clock,
    { cacheTtlMs: 1000 },
  );
  const auth = new AuthService(registry, clock);
  const guard = new ApiKeyGuard(new Reflector(), auth);

  function request(options: { header?: string; query?: Record<string, unknown> } = {}): TestRequest {
    return {
      headers: options.header === undefined ? {} : { 'x-api-key': options.header },
      query: options.query ?? {},
    };
  }

  function context<T>(controller: new () => T, handler: keyof T & string, req: TestRequest, type = 'http') {
    const host = new ExecutionContextHost(
      [req, {}, () => undefined],
      controller,
      (controller.prototype as T)[handler] as (...args: unknown[]) => unknown,
    );
    host.setType(type);
    return host;
  }

  return { findByHash, clock, auth, guard, request, context };
}

async function failureOf(promise: Promise<unknown>): Promise<AuthFailure> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof AuthError)) throw new Error(`expected an AuthError, got ${String(error)}`);
  return error.failure;
}

describe('ApiKeyGuard', () => {
  it('lets a public route through without a key and without asking the store', async () => {
    const { guard, request, context, findByHash } = setup();
    const req = request();
    await expect(guard.canActivate(context(FixturesController, 'health', req))).resolves.toBe(true);
    expect(req.principal).toBeUndefined();
    expect(findByHash).not.toHaveBeenCalled();
  });

  it('lets every route of a public controller through', async () => {
    const { guard, request, context, findByHash } = setup();
    await expect(guard.canActivate(context(RouteListController, 'routes', request()))).resolves.toBe(true);
    expect(findByHash).not.toHaveBeenCalled();
  });

  it('refuses a request without a key as missing_key', async () => {
    const { guard, request, context, findByHash } = setup();
    expect(await failureOf(guard.canActivate(context(FixturesController, 'anyKey', request())))).toEqual({
      kind: 'missing_key',
    });
    expect(findByHash).not.toHaveBeenCalled();
  });

  it('refuses an unknown key as invalid_key', async () => {
    const { guard, request, context } = setup();
    const req = request({ header: KEYS.unknown });
    expect(await failureOf(guard.canActivate(context(FixturesController, 'anyKey', req)))).toEqual({
      kind: 'invalid_key',
      reason: 'unknown',
    });
    expect(req.principal).toBeUndefined();
  });

  it('refuses a key at its expiry instant as invalid_key', async () => {
    const { guard, request, context } = setup();
    const req = request({ header: KEYS.expired });
    expect(await failureOf(guard.canActivate(context(FixturesController, 'fixtures', req)))).toEqual({
      kind: 'invalid_key',
      reason: 'expired',
    });
  });

  it('attaches the principal of a valid key to the request', async () => {
    const { guard, request, context } = setup();
    const req = request({ header: KEYS.fixtures });
    await expect(guard.canActivate(context(FixturesController, 'fixtures', req))).resolves.toBe(true);
    expect(req.principal).toBeInstanceOf(Principal);
    expect(req.principal?.keyId).toBe('fixtures');
  });

  it('refuses a key lacking the scope of the route', async () => {
    const { guard, request, context } = setup();
    const req = request({ header: KEYS.finalScores });
    expect(await failureOf(guard.canActivate(context(FixturesController, 'fixtures', req)))).toEqual({
      kind: 'missing_scope',
      mode: 'all',
      scopes: ['fixtures'],
    });
    expect(req.principal).toBeUndefined();
  });

  describe('class-level sportsbook with method-level scopes', () => {
    it('passes a key with the scope and the grant', async () => {
      const { guard, request, context } = setup();
      const req = request({ header: KEYS.odds });
      await expect(guard.canActivate(context(OddsController, 'markets', req))).resolves.toBe(true);
      expect(req.principal?.keyId).toBe('odds');
    });

    it('enforces the method scope', async () => {
      const { guard, request, context } = setup();
      const req = request({ header: KEYS.fixtures });
      expect(await failureOf(guard.canActivate(context(OddsController, 'markets', req)))).toEqual({
        kind: 'missing_scope',
        mode: 'all',
        scopes: ['odds'],
      });
    });

    it('enforces the class sportsbook', async () => {
      const { guard, request, context } = setup();
      const req = request({ header: KEYS.oddsNoGrant });
      expect(await failureOf(guard.canActivate(context(OddsController, 'markets', req)))).toEqual({
        kind: 'sportsbook_not_granted',
        book: 'pinnacle',
      });
    });
  });

  describe('two stacked scope decorators', () => {
    it('enforce the upper one', async () => {
      const { guard, request, context } = setup();
      const req = request({ header: KEYS.liveOnly });
      expect(await failureOf(guard.canActivate(context(FixturesController, 'live', req)))).toEqual({
        kind: 'missing_scope',
        mode: 'all',
        scopes: ['fixtures'],
      });
    });

    it('enforce the lower one, not only the last applied', async () => {
      const { guard, request, context } = setup();
      const req = request({ header: KEYS.fixtures });
      expect(await failureOf(guard.canActivate(context(FixturesController, 'live', req)))).toEqual({
        kind: 'missing_scope',
        mode: 'all',
        scopes: ['live_scores'],
      });
    });

    it('pass a key holding both scopes', async () => {
      const { guard, request, context } = setup();
      const req = request({ header: KEYS.fixturesLive });
      await expect(guard.canActivate(context(FixturesController, 'live', req))).resolves.toBe(true);
    });
  });

  describe('class-level scopes with method-level scopes', () => {
    it('enforce the class rule', async () => {
      const { guard, request, context } = setup();
      const req = request({ header: KEYS.finalScores });
      expect(await failureOf(guard.canActivate(context(ScoresController, 'scores', req)))).toEqual({
        kind: 'missing_scope',
        mode: 'all',
        scopes: ['fixtures'],
      });
    });

    it('enforce the method rule', async () => {
      const { guard, request, context } = setup();
      const req = request({ header: KEYS.fixtures });
      expect(await failureOf(guard.canActivate(context(ScoresController, 'scores', req)))).toEqual({
        kind: 'missing_scope',
        mode: 'any',
        scopes: ['live_scores', 'final_scores'],
      });
    });

    it('pass a key meeting both', async () => {
      const { guard, request, context } = setup();
      const req = request({ header: KEYS.fixturesLive });
      await expect(guard.canActivate(context(ScoresController, 'scores', req))).resolves.toBe(true);
    });
  });

  describe('any-of scopes', () => {
    it('pass with either scope', async () => {
      const { guard, request, context } = setup();
      await expect(
        guard.canActivate(context(FixturesController, 'scores', request({ header: KEYS.fixturesLive }))),
      ).resolves.toBe(true);
      await expect(
        guard.canActivate(context(FixturesController, 'scores', request({ header: KEYS.finalScores }))),
      ).resolves.toBe(true);
    });

    it('fail without either, naming both', async () => {
      const { guard, request, context } = setup();
      const req = request({ header: KEYS.fixtures });
      expect(await failureOf(guard.canActivate(context(FixturesController, 'scores', req)))).toEqual({
        kind: 'missing_scope',
        mode: 'any',
        scopes: ['live_scores', 'final_scores'],
      });
    });
  });

  describe('where the key comes from', () => {
    it('prefers the header over query.key', async () => {
      const { guard, request, context } = setup();
      const req = request({ header: KEYS.fixtures, query: { key: KEYS.unknown } });
      await expect(guard.canActivate(context(FixturesController, 'fixtures', req))).resolves.toBe(true);
      expect(req.principal?.keyId).toBe('fixtures');
    });

    it('uses a bad header even when query.key is good', async () => {
      const { guard, request, context } = setup();
      const req = request({ header: KEYS.unknown, query: { key: KEYS.fixtures } });
      expect(await failureOf(guard.canActivate(context(FixturesController, 'fixtures', req)))).toMatchObject({
        kind: 'invalid_key',
      });
    });

    it('uses query.key when there is no header', async () => {
      const { guard, request, context } = setup();
      const req = request({ query: { key: KEYS.fixtures } });
      await expect(guard.canActivate(context(FixturesController, 'fixtures', req))).resolves.toBe(true);
      expect(req.principal?.keyId).toBe('fixtures');
    });
  });

  it.each(['ws', 'rpc'])('lets %s contexts through untouched', async (type) => {
    const { guard, request, context, findByHash } = setup();
    const req = request();
    await expect(guard.canActivate(context(FixturesController, 'fixtures', req, type))).resolves.toBe(true);
    expect(req.principal).toBeUndefined();
    expect(findByHash).not.toHaveBeenCalled();
  });
});

describe('AuthService.authenticateUpgrade', () => {
  function upgrade(url: string, headers: IncomingHttpHeaders = {}): IncomingMessage {
    return { headers, url } as unknown as IncomingMessage;
  }

  it('accepts a key from the query string', async () => {
    const { auth } = setup();
    const principal = await auth.authenticateUpgrade(
      upgrade(`/v1/stream?key=${KEYS.fixtures}`),
      ANY_VALID_KEY,
    );
    expect(principal.keyId).toBe('fixtures');
  });

  it('prefers the header when both are given', async () => {
    const { auth } = setup();
    const req = upgrade(`/v1/stream?key=${KEYS.finalScores}`, { 'x-api-key': KEYS.fixtures });
    const principal = await auth.authenticateUpgrade(req, ANY_VALID_KEY);
    expect(principal.keyId).toBe('fixtures');
  });

  it('refuses an upgrade without a key as missing_key', async () => {
    const { auth, findByHash } = setup();
    expect(await failureOf(auth.authenticateUpgrade(upgrade('/v1/stream'), ANY_VALID_KEY))).toEqual({
      kind: 'missing_key',
    });
    expect(findByHash).not.toHaveBeenCalled();
  });

  it('applies the requirement to the upgrade', async () => {
    const { auth } = setup();
    const req = upgrade(`/v1/stream?key=${KEYS.fixtures}`);
    expect(await failureOf(auth.authenticateUpgrade(req, { scopeRules: [allOf(Scope.LiveScores)] }))).toEqual(
      {
        kind: 'missing_scope',
        mode: 'all',
        scopes: ['live_scores'],
      },
    );
  });
});
