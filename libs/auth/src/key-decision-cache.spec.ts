import { ManualClock } from '@app/clock';
import { KeyDecisionCache } from './key-decision-cache';
import { Principal } from './key-record';

const TTL = 1000;

function principal(keyId = 'key-1', accountId = 'account-1'): Principal {
  return new Principal({
    keyId,
    accountId,
    scopes: ['fixtures'],
    active: true,
    expiresAt: null,
    fixturesSports: [],
    grants: {},
  });
}

function setup(ttlMs = TTL, maxEntries?: number) {
  const clock = new ManualClock();
  const cache = new KeyDecisionCache(ttlMs, clock, maxEntries);
  return { clock, cache };
}

describe('KeyDecisionCache', () => {
  it('misses a hash it never stored', () => {
    const { cache } = setup();
    expect(cache.get('h1')).toBeUndefined();
  });

  it('returns fresh entries', () => {
    const { clock, cache } = setup();
    const key = principal();
    expect(cache.set('h1', key, cache.generation)).toBe(true);
    clock.advance(TTL - 1);
    const hit = cache.get('h1');
    expect(hit).toBeDefined();
    expect(hit?.principal).toBe(key);
  });

  it('treats an entry as stale exactly at the TTL and drops it', () => {
    const { clock, cache } = setup();
    cache.set('h1', principal(), cache.generation);
    clock.advance(TTL);
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.size).toBe(0);
    clock.set(clock.now() - TTL);
    expect(cache.get('h1')).toBeUndefined();
  });

  it('caches unknown keys too', () => {
    const { cache } = setup();
    expect(cache.set('unknown', null, cache.generation)).toBe(true);
    expect(cache.get('unknown')).toEqual({ principal: null });
  });

  it('clears everything and bumps the generation on invalidateAll', () => {
    const { cache } = setup();
    cache.set('h1', principal(), cache.generation);
    cache.set('h2', null, cache.generation);
    const before = cache.generation;
    cache.invalidateAll();
    expect(cache.generation).toBeGreaterThan(before);
    expect(cache.size).toBe(0);
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.get('h2')).toBeUndefined();
  });

  it('refuses to store a lookup from an outdated generation', () => {
    const { cache } = setup();
    const started = cache.generation;
    cache.invalidateAll();
    expect(cache.set('h1', principal(), started)).toBe(false);
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(cache.set('h1', principal(), cache.generation)).toBe(true);
    expect(cache.get('h1')).toBeDefined();
  });

  it('never stores with a TTL of 0', () => {
    const { cache } = setup(0);
    expect(cache.set('h1', principal(), cache.generation)).toBe(false);
    expect(cache.size).toBe(0);
    expect(cache.get('h1')).toBeUndefined();
  });

  it('treats an entry as stale when the clock moves backwards', () => {
    const { clock, cache } = setup();
    cache.set('h1', principal(), cache.generation);
    clock.advance(-1);
    expect(cache.get('h1')).toBeUndefined();
    clock.advance(1);
    expect(cache.get('h1')).toBeUndefined();
  });

  it('restarts the TTL when an entry is stored again', () => {
    const { clock, cache } = setup();
    cache.set('h1', null, cache.generation);
    clock.advance(TTL - 1);
    const second = principal('key-2');
    cache.set('h1', second, cache.generation);
    clock.advance(TTL - 1);
    expect(cache.get('h1')?.principal).toBe(second);
  });

  it('evicts the oldest entry beyond maxEntries', () => {
    const { clock, cache } = setup(TTL, 2);
    cache.set('h1', principal('key-1'), cache.generation);
    clock.advance(1);
    cache.set('h2', principal('key-2'), cache.generation);
    clock.advance(1);
    cache.set('h3', principal('key-3'), cache.generation);
    expect(cache.size).toBe(2);
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.get('h2')?.principal?.keyId).toBe('key-2');
    expect(cache.get('h3')?.principal?.keyId).toBe('key-3');
  });

  it('counts a re-stored entry as the newest when evicting', () => {
    const { cache } = setup(TTL, 2);
    cache.set('h1', principal('key-1'), cache.generation);
    cache.set('h2', principal('key-2'), cache.generation);
    cache.set('h1', principal('key-1b'), cache.generation);
    cache.set('h3', principal('key-3'), cache.generation);
    expect(cache.get('h2')).toBeUndefined();
    expect(cache.get('h1')?.principal?.keyId).toBe('key-1b');
    expect(cache.get('h3')?.principal?.keyId).toBe('key-3');
  });

  describe('invalidate (one key or account)', () => {
    function filled() {
      const ctx = setup();
      ctx.cache.set('a1', principal('key-a1', 'account-a'), ctx.cache.generation);
      ctx.cache.set('a2', principal('key-a2', 'account-a'), ctx.cache.generation);
      ctx.cache.set('b1', principal('key-b1', 'account-b'), ctx.cache.generation);
      ctx.cache.set('unknown', null, ctx.cache.generation);
      return ctx;
    }

    it('drops the named key and every unknown-key entry, keeping the others', () => {
      const { cache } = filled();
      cache.invalidate({ keyId: 'key-a1' });
      expect(cache.get('a1')).toBeUndefined();
      expect(cache.get('unknown')).toBeUndefined();
      expect(cache.get('a2')?.principal?.keyId).toBe('key-a2');
      expect(cache.get('b1')?.principal?.keyId).toBe('key-b1');
    });

    it('drops every key of the named account', () => {
      const { cache } = filled();
      cache.invalidate({ accountId: 'account-a' });
      expect(cache.get('a1')).toBeUndefined();
      expect(cache.get('a2')).toBeUndefined();
      expect(cache.get('b1')).toBeDefined();
    });

    it('drops everything when the change names nothing, and outdates lookups in flight', () => {
      const { cache } = filled();
      const before = cache.generation;
      cache.invalidate({ keyId: 'key-b1' });
      expect(cache.set('late', principal('key-late'), before)).toBe(false);
      cache.invalidate({});
      expect(cache.size).toBe(0);
    });
  });
});
