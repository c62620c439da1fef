import {
  Inject,
  Injectable,
  Logger,
  type OnModuleDestroy,
  type OnModuleInit,
  Optional,
} from '@nestjs/common';
import { Clock } from '@app/clock';
import { type KeysChangedEvent, NatsLink } from '@app/messaging';
import { Metrics } from '@app/observability';
import { hasApiKeyShape, hashApiKey } from './api-key';
import { AuthError } from './auth-failure';
import { AUTH_OPTIONS, type AuthOptions } from './auth.options';
import { KeyDecisionCache } from './key-decision-cache';
import { Principal } from './key-record';
import { KeyStore } from './key-store';

/**
 * Answers "who is this key?" from a TTL-bounded cache, falling back to
 * PostgreSQL. An `auth.keys.changed` message drops the entries of the key or
 * account it names, and a NATS reconnect (messages may have been missed)
 * drops them all, so the CLI's changes apply everywhere within a second, or
 * within the TTL if the message is lost.
 */
@Injectable()
export class KeyRegistry implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(KeyRegistry.name);
  private readonly cache: KeyDecisionCache;
  /** Cache outcomes since start, read by the metrics endpoint. */
  readonly stats = { hits: 0, misses: 0 };
  private readonly inflight = new Map<string, Promise<Principal | null>>();
  private readonly unsubscribers: Array<() => void> = [];
  private readonly changeListeners = new Set<() => void>();

  constructor(
    private readonly store: KeyStore,
    private readonly nats: NatsLink,
    clock: Clock,
    @Inject(AUTH_OPTIONS) options: AuthOptions,
    @Optional() private readonly metrics?: Metrics,
  ) {
    this.cache = new KeyDecisionCache(options.cacheTtlMs, clock);
  }

  onModuleInit(): void {
    this.unsubscribers.push(
      this.nats.onReconnect(() => {
        this.invalidate();
        this.notifyChanged();
      }),
    );
    this.metrics?.observeCounter(
      'auth_cache_hits_total',
      'Key decisions answered from the cache',
      () => this.stats.hits,
    );
    this.metrics?.observeCounter(
      'auth_cache_misses_total',
      'Key decisions that needed PostgreSQL',
      () => this.stats.misses,
    );
  }

  /**
   * Called after the cache dropped decisions because keys changed (or
   * changes may have been missed): holders of long-lived sessions, such as
   * stream sockets, check their keys again.
   */
  onKeysChanged(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  private notifyChanged(): void {
    for (const listener of this.changeListeners) listener();
  }

  onModuleDestroy(): void {
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
  }

  /** A key or account changed somewhere (the keys CLI announces it): its cached decisions go. */
  applyKeyChange(event: Partial<KeysChangedEvent> | undefined): void {
    this.cache.invalidate({ keyId: event?.keyId, accountId: event?.accountId });
    this.notifyChanged();
  }

  invalidate(): void {
    this.cache.invalidateAll();
  }

  /**
   * The principal of `key`, or null when no such key exists. Throws an
   * AuthError (backend_unavailable) when PostgreSQL cannot answer and the
   * cache holds nothing fresh.
   */
  async lookup(key: string): Promise<Principal | null> {
    if (!hasApiKeyShape(key)) return null;
    const hash = hashApiKey(key);
    const cached = this.cache.get(hash);
    if (cached) {
      this.stats.hits += 1;
      return cached.principal;
    }
    this.stats.misses += 1;

    const generation = this.cache.generation;
    const flightKey = `${generation}:${hash}`;
    const running = this.inflight.get(flightKey);
    if (running) return running;
    const load = this.load(hash, generation).finally(() => this.inflight.delete(flightKey));
    this.inflight.set(flightKey, load);
    return load;
  }

  private async load(hash: string, generation: number): Promise<Principal | null> {
    let principal: Principal | null;
    try {
      const record = await this.store.findByHash(hash);
      principal = record ? new Principal(record) : null;
    } catch (error) {
      this.logger.warn(
        `Key lookup failed, answering "auth backend unavailable": ${error instanceof Error ? error.message : String(error)}`,
      );
      throw new AuthError({ kind: 'backend_unavailable' });
    }
    this.cache.set(hash, principal, generation);
    return principal;
  }
}
