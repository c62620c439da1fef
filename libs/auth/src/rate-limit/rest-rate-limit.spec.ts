import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { ManualClock } from '@app/clock';
import type { NatsEventClient, NatsLink } from '@app/messaging';
import { hashApiKey } from '../api-key';
import { AuthError } from '../auth-failure';
import { AuthService } from '../auth.service';
import { RequiresScopes } from '../decorators/access.decorators';
import { ApiKeyGuard } from '../guards/api-key.guard';
import type { KeyRecord } from '../key-record';
import { KeyRegistry } from '../key-registry';
import type { KeyStore } from '../key-store';
import { Scope } from '../scopes';
import { RateLimits } from './rate-limits';
import { applyRestRateLimit, RateLimitExceeded } from './rest-rate-limit';

const FIXTURES_KEY = 'sk_rate-limited-fixtures-key-0000';
const SLOW_KEY = 'sk_rate-limited-slow-key-00000000';
const UNKNOWN_KEY = 'sk_nobody-has-this-key-000000000';

function record(keyId: string, overrides: Partial<KeyRecord> = {}): KeyRecord {
  return {
    keyId,
    accountId: 'account-1',
    scopes: [Scope.Fixtures],
    active: true,
    expiresAt: null,
    fixturesSports: [1],
    grants: {},
    ...overrides,
  };
}

const RECORDS = new Map([
  [hashApiKey(FIXTURES_KEY), record('fixtures')],
  [hashApiKey(SLOW_KEY), record('slow', { rate: { rps: 1, burst: 2 } })],
]);

class Controller {
  @RequiresScopes(Scope.Fixtures)
  fixtures(): string {
    return 'fixtures';
  }

  @RequiresScopes(Scope.Odds)
  odds(): string {
    return 'odds';
  }
}

function setup() {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const nats = { onReconnect: () => () => undefined, isConnected: () => false };
  const registry = new KeyRegistry(
    { findByHash: (hash: string) => Promise.resolve(RECORDS.get(hash) ?? null) } as unknown as KeyStore,
    nats as unknown as NatsLink,
    clock,
    { cacheTtlMs: 1000 },
  );
  const limits = new RateLimits(
    { defaultRate: { rps: 10, burst: 3 }, service: 'fixtures-live' },
    clock,
    nats as unknown as NatsLink,
    {} as NatsEventClient,
  );
  const guard = new ApiKeyGuard(new Reflector(), new AuthService(registry, clock), limits);

  async function call(key: string, handler: 'fixtures' | 'odds' = 'fixtures') {
    const headers: Record<string, string | number> = {};
    const response = { setHeader: (name: string, value: string | number) => (headers[name] = value) };
    const request = { headers: { 'x-api-key': key }, query: {} };
    const host = new ExecutionContextHost(
      [request, response, () => undefined],
      Controller,
      Reflect.get(Controller.prototype, handler),
    );
    host.setType('http');
    const outcome = await guard.canActivate(host).then(
      () => 200,
      (error: unknown) => error,
    );
    return { outcome, headers };
  }

  return { clock, limits, call };
}

describe('REST rate limits in the key guard', () => {
  it('sends the limit headers on admitted requests, then 429 with Retry-After', async () => {
    const { call } = setup();
    expect(await call(FIXTURES_KEY)).toEqual({
      outcome: 200,
      headers: { 'RateLimit-Limit': 3, 'RateLimit-Remaining': 2, 'RateLimit-Reset': 0 },
    });
    await call(FIXTURES_KEY);
    expect((await call(FIXTURES_KEY)).headers).toMatchObject({
      'RateLimit-Remaining': 0,
      'RateLimit-Reset': 1,
    });
    const refused = await call(FIXTURES_KEY);
    expect(refused.outcome).toBeInstanceOf(RateLimitExceeded);
    expect((refused.outcome as RateLimitExceeded).getStatus()).toBe(429);
    expect(refused.headers).toEqual({
      'RateLimit-Limit': 3,
      'RateLimit-Remaining': 0,
      'RateLimit-Reset': 1,
      'Retry-After': 1,
    });
  });

  it("applies the key's own rate", async () => {
    const { call, clock } = setup();
    expect((await call(SLOW_KEY)).headers['RateLimit-Limit']).toBe(2);
    await call(SLOW_KEY);
    expect((await call(SLOW_KEY)).outcome).toBeInstanceOf(RateLimitExceeded);
    clock.advance(1000);
    expect((await call(SLOW_KEY)).outcome).toBe(200);
  });

  it('charges nothing and sends no headers for an unknown key', async () => {
    const { call, limits } = setup();
    for (let i = 0; i < 5; i++) {
      const answer = await call(UNKNOWN_KEY);
      expect(answer.outcome).toBeInstanceOf(AuthError);
      expect(answer.headers).toEqual({});
    }
    expect(limits.stats.limited).toBe(0);
  });

  it("charges a valid key's 403 and sends its headers", async () => {
    const { call } = setup();
    const forbidden = await call(FIXTURES_KEY, 'odds');
    expect((forbidden.outcome as AuthError).status).toBe(403);
    expect(forbidden.headers).toMatchObject({ 'RateLimit-Remaining': 2 });
    await call(FIXTURES_KEY, 'odds');
    await call(FIXTURES_KEY, 'odds');
    expect((await call(FIXTURES_KEY)).outcome).toBeInstanceOf(RateLimitExceeded);
  });

  it('skips reports from itself and from other services, and takes those of its own service', () => {
    const { limits } = setup();
    const used = { fixtures: { n: 3, rps: 10, burst: 3 } };
    limits.applyReport({ service: 'odds-passthrough', replica: 'other', used });
    limits.applyReport(undefined);
    limits.applyReport({ service: 'fixtures-live', replica: 'other', used: null as never });
    const principal = { keyId: 'fixtures', rate: null } as never;
    expect(limits.admit(principal).allowed).toBe(true);
    limits.applyReport({ service: 'fixtures-live', replica: 'other', used });
    expect(limits.admit(principal).allowed).toBe(false);
  });
});

describe('the rate report timer', () => {
  const principal = { keyId: 'fixtures', rate: null } as never;

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('wakes an idle replica never, and reports only until the buckets it used are full again', () => {
    const { limits, clock } = setup();
    limits.onModuleInit();
    jest.advanceTimersByTime(1000);
    expect(jest.getTimerCount()).toBe(0);

    for (let i = 0; i < 3; i++) limits.admit(principal);
    expect(jest.getTimerCount()).toBe(1);
    // 10 rps, burst 3: after 100 ms one token of three is back, so the bucket is kept.
    clock.advance(100);
    jest.advanceTimersByTime(100);
    expect(jest.getTimerCount()).toBe(1);
    clock.advance(200);
    jest.advanceTimersByTime(200);
    expect(jest.getTimerCount()).toBe(0);
  });

  it("keeps the bucket another replica's report filled until it is full, and stops with the module", () => {
    const { limits, clock } = setup();
    limits.applyReport({
      service: 'fixtures-live',
      replica: 'other',
      used: { fixtures: { n: 2, rps: 10, burst: 3 } },
    });
    expect(jest.getTimerCount()).toBe(1);
    clock.advance(100);
    jest.advanceTimersByTime(100);
    expect(jest.getTimerCount()).toBe(1);
    limits.onModuleDestroy();
    expect(jest.getTimerCount()).toBe(0);
    limits.admit(principal);
    expect(jest.getTimerCount()).toBe(0);
  });
});

describe('applyRestRateLimit', () => {
  it('writes no Retry-After on an admitted request', () => {
    const headers = new Map<string, unknown>();
    applyRestRateLimit(
      { allowed: true, limit: 5, remaining: 4, resetSeconds: 0, retryAfterSeconds: 1 },
      { setHeader: (name, value) => headers.set(name, value) },
    );
    expect(headers.has('Retry-After')).toBe(false);
  });
});
