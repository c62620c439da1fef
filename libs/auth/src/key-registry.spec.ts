import { Logger } from '@nestjs/common';
import { ManualClock } from '@app/clock';
import type { NatsLink } from '@app/messaging';
import { hashApiKey } from './api-key';
import { AuthError } from './auth-failure';
import type { KeyRecord } from './key-record';
import { KeyChangesController } from './key-changes.controller';
import { KeyRegistry } from './key-registry';
import type { KeyStore } from './key-store';

const TTL = 1000;
const KEY = 'sk_registry-test-key-0123456789abcdef';

function record(overrides: Partial<KeyRecord> = {}): KeyRecord {
  return {
    keyId: 'key-1',
    accountId: 'account-1',
    scopes: ['fixtures'],
    active: true,
    expiresAt: null,
    fixturesSports: [1],
    grants: {},
    ...overrides,
  };
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Records the registry's reconnect listener, so tests can play a reconnect. */
class FakeNats {
  readonly reconnectListeners: Array<() => void> = [];
  unsubscribed = 0;

  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.push(listener);
    return () => {
      this.unsubscribed += 1;
    };
  }

  reconnect(): void {
    for (const listener of this.reconnectListeners) listener();
  }
}

function setup() {
  const findByHash = jest.fn<Promise<KeyRecord | null>, [string]>();
  const store = { findByHash };
  const nats = new FakeNats();
  const clock = new ManualClock();
  const registry = new KeyRegistry(store as unknown as KeyStore, nats as unknown as NatsLink, clock, {
    cacheTtlMs: TTL,
  });
  registry.onModuleInit();
  return { findByHash, nats, clock, registry };
}

describe('KeyRegistry', () => {
  let warn: jest.SpyInstance;

  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });

  afterEach(() => {
    warn.mockRestore();
  });

  it('answers null for a badly shaped key without asking the store', async () => {
    const { findByHash, registry } = setup();
    await expect(registry.lookup('not-a-key')).resolves.toBeNull();
    await expect(registry.lookup('sk_')).resolves.toBeNull();
    await expect(registry.lookup('sk_' + 'a'.repeat(200))).resolves.toBeNull();
    expect(findByHash).not.toHaveBeenCalled();
  });

  it('asks the store by SHA-256 hash, never by the key itself', async () => {
    const { findByHash, registry } = setup();
    findByHash.mockResolvedValue(record());
    const principal = await registry.lookup(KEY);
    expect(findByHash).toHaveBeenCalledTimes(1);
    expect(findByHash).toHaveBeenCalledWith(hashApiKey(KEY));
    expect(JSON.stringify(findByHash.mock.calls)).not.toContain(KEY);
    expect(principal?.keyId).toBe('key-1');
    expect(principal?.hasScope('fixtures')).toBe(true);
  });

  it('answers null for a key the store does not know', async () => {
    const { findByHash, registry } = setup();
    findByHash.mockResolvedValue(null);
    await expect(registry.lookup(KEY)).resolves.toBeNull();
  });

  it('serves a second lookup within the TTL from the cache', async () => {
    const { findByHash, clock, registry } = setup();
    findByHash.mockResolvedValue(record());
    const first = await registry.lookup(KEY);
    clock.advance(TTL - 1);
    const second = await registry.lookup(KEY);
    expect(second).toBe(first);
    expect(findByHash).toHaveBeenCalledTimes(1);
  });

  it('caches unknown keys as well', async () => {
    const { findByHash, registry } = setup();
    findByHash.mockResolvedValue(null);
    await registry.lookup(KEY);
    await expect(registry.lookup(KEY)).resolves.toBeNull();
    expect(findByHash).toHaveBeenCalledTimes(1);
  });

  it('asks the store again once the TTL has passed', async () => {
    const { findByHash, clock, registry } = setup();
    findByHash.mockResolvedValueOnce(record()).mockResolvedValueOnce(record({ active: false }));
    await registry.lookup(KEY);
    clock.advance(TTL);
    const again = await registry.lookup(KEY);
    expect(findByHash).toHaveBeenCalledTimes(2);
    expect(again?.active).toBe(false);
  });

  it('drops the cache on an auth.keys.changed message', async () => {
    const { findByHash, registry } = setup();
    findByHash.mockResolvedValueOnce(record()).mockResolvedValueOnce(record({ active: false }));
    await registry.lookup(KEY);
    new KeyChangesController(registry).onKeysChanged({
      change: 'key',
      keyId: 'key-1',
      at: new Date(0).toISOString(),
    });
    const again = await registry.lookup(KEY);
    expect(findByHash).toHaveBeenCalledTimes(2);
    expect(again?.active).toBe(false);
  });

  it('drops the cache on a NATS reconnect', async () => {
    const { findByHash, nats, registry } = setup();
    findByHash.mockResolvedValue(record());
    await registry.lookup(KEY);
    expect(nats.reconnectListeners).toHaveLength(1);
    nats.reconnect();
    await registry.lookup(KEY);
    expect(findByHash).toHaveBeenCalledTimes(2);
  });

  it('lets concurrent lookups of one key share a single store call', async () => {
    const { findByHash, registry } = setup();
    const answer = deferred<KeyRecord | null>();
    findByHash.mockReturnValue(answer.promise);
    const lookups = [registry.lookup(KEY), registry.lookup(KEY), registry.lookup(KEY)];
    answer.resolve(record());
    const [a, b, c] = await Promise.all(lookups);
    expect(findByHash).toHaveBeenCalledTimes(1);
    expect(a?.keyId).toBe('key-1');
    expect(b).toBe(a);
    expect(c).toBe(a);
  });

  it('does not share a store call between different keys', async () => {
    const { findByHash, registry } = setup();
    findByHash.mockResolvedValue(null);
    await Promise.all([registry.lookup(KEY), registry.lookup(KEY + 'x')]);
    expect(findByHash).toHaveBeenCalledTimes(2);
    expect(findByHash).toHaveBeenNthCalledWith(1, hashApiKey(KEY));
    expect(findByHash).toHaveBeenNthCalledWith(2, hashApiKey(KEY + 'x'));
  });

  it('does not let a lookup that started before an invalidation repopulate the cache', async () => {
    const { findByHash, registry } = setup();
    const stale = deferred<KeyRecord | null>();
    findByHash.mockReturnValueOnce(stale.promise).mockResolvedValueOnce(record({ active: false }));
    const before = registry.lookup(KEY);
    registry.applyKeyChange({ change: 'key', at: new Date(0).toISOString() });
    stale.resolve(record({ active: true }));
    await expect(before).resolves.toMatchObject({ active: true });

    const after = await registry.lookup(KEY);
    expect(findByHash).toHaveBeenCalledTimes(2);
    expect(after?.active).toBe(false);
  });

  it('does not join a lookup that started before an invalidation', async () => {
    const { findByHash, registry } = setup();
    const stale = deferred<KeyRecord | null>();
    findByHash.mockReturnValueOnce(stale.promise).mockResolvedValueOnce(record({ active: false }));
    const before = registry.lookup(KEY);
    registry.invalidate();
    const after = registry.lookup(KEY);
    stale.resolve(record({ active: true }));
    await expect(after).resolves.toMatchObject({ active: false });
    await expect(before).resolves.toMatchObject({ active: true });
    expect(findByHash).toHaveBeenCalledTimes(2);
  });

  it('rejects with backend_unavailable when the store fails', async () => {
    const { findByHash, registry } = setup();
    findByHash.mockRejectedValue(new Error('connection refused'));
    const error = await registry.lookup(KEY).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).failure.kind).toBe('backend_unavailable');
    expect((error as AuthError).status).toBe(503);
  });

  it('does not cache a failure', async () => {
    const { findByHash, registry } = setup();
    findByHash.mockRejectedValueOnce(new Error('connection refused')).mockResolvedValueOnce(record());
    await expect(registry.lookup(KEY)).rejects.toBeInstanceOf(AuthError);
    await expect(registry.lookup(KEY)).resolves.toMatchObject({ keyId: 'key-1' });
    expect(findByHash).toHaveBeenCalledTimes(2);
  });

  it('still answers from a fresh cached entry while the store is failing', async () => {
    const { findByHash, clock, registry } = setup();
    findByHash.mockResolvedValueOnce(record()).mockRejectedValue(new Error('connection refused'));
    const first = await registry.lookup(KEY);
    clock.advance(TTL - 1);
    await expect(registry.lookup(KEY)).resolves.toBe(first);
    expect(findByHash).toHaveBeenCalledTimes(1);
  });

  it('answers backend_unavailable once the cached entry is past the TTL and the store fails', async () => {
    const { findByHash, clock, registry } = setup();
    findByHash.mockResolvedValueOnce(record()).mockRejectedValue(new Error('connection refused'));
    await registry.lookup(KEY);
    clock.advance(TTL);
    await expect(registry.lookup(KEY)).rejects.toMatchObject({ failure: { kind: 'backend_unavailable' } });
    expect(findByHash).toHaveBeenCalledTimes(2);
  });

  it('logs a warning about a failed lookup that never contains the key', async () => {
    const { findByHash, registry } = setup();
    findByHash.mockImplementation((hash: string) => Promise.reject(new Error(`query failed for ${hash}`)));
    await expect(registry.lookup(KEY)).rejects.toBeInstanceOf(AuthError);
    expect(warn).toHaveBeenCalledTimes(1);
    const logged = JSON.stringify(warn.mock.calls);
    expect(logged).toContain('query failed');
    expect(logged).not.toContain(KEY);
    expect(logged).not.toContain(KEY.slice(3));
  });

  it('stops listening for reconnects on destroy, once', () => {
    const { nats, registry } = setup();
    registry.onModuleDestroy();
    expect(nats.unsubscribed).toBe(1);
    registry.onModuleDestroy();
    expect(nats.unsubscribed).toBe(1);
  });
});
