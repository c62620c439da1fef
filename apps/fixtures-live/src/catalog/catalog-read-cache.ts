import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { AnswerFreshness } from '@app/auth';
import { Clock } from '@app/clock';
import { PreparedJson } from '@app/http-edge';
import { NatsLink } from '@app/messaging';
import { LastKnown } from '../common/last-known';
import { type LoadStamp, ReadCache } from './read-cache';

/**
 * How long a list answer may be served from memory when a change
 * notification was lost; normally the ingest's NATS notice drops it first.
 */
const MAX_AGE_MS = 2000;
const MAX_ENTRIES = 5000;
/** List answers kept to serve through a PostgreSQL outage (pages of up to 100 matches). */
const LAST_KNOWN_ENTRIES = 2000;

/** An answer and its JSON, ready to send (bytes and entity tag computed once per load). */
export interface JsonAnswer<T> {
  readonly value: T;
  readonly json: PreparedJson;
}

/**
 * The process's cache of catalog list answers, emptied on every catalog change
 * notice. While PostgreSQL is out of reach, the last answer read for a key is
 * served however old, rather than no answer.
 */
@Injectable()
export class CatalogReadCache implements AnswerFreshness, OnModuleInit, OnModuleDestroy {
  private readonly cache = new ReadCache(MAX_AGE_MS, MAX_ENTRIES);
  private readonly lastKnown = new LastKnown<unknown>(LAST_KNOWN_ENTRIES);
  /** When each prepared answer was loaded, and in which generation of the cache. */
  private readonly loads = new WeakMap<PreparedJson, LoadStamp>();
  private unsubscribe?: () => void;

  constructor(
    private readonly clock: Clock,
    private readonly nats: NatsLink,
  ) {}

  onModuleInit(): void {
    // Notices sent while the link was down are lost: start afresh after a reconnect.
    this.unsubscribe = this.nats.onReconnect(() => this.clear());
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  /** The ingest changed catalog rows: cached list answers are stale. */
  clear(): void {
    this.cache.clear();
  }

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    return this.cache.get(key, this.clock.now(), () => this.lastKnown.read(key, load) as Promise<T>);
  }

  /** Like `get`, keeping the answer serialised and tagged too, so a hit costs no JSON or hashing work. */
  json<T>(key: string, load: () => Promise<T>): Promise<JsonAnswer<T>> {
    return this.get(key, async () => {
      const started = this.cache.stamp(this.clock.now());
      const value = await load();
      const json = new PreparedJson(JSON.stringify(value));
      this.loads.set(json, started);
      return { value, json };
    });
  }

  /**
   * Whether `json` is an answer this cache would still hand out: loaded here
   * in the current generation (no change notice since it started) and younger
   * than the cache's age limit. An answer the PostgreSQL-outage fallback
   * serves is older than that, so it is never fresh.
   */
  isFresh(json: PreparedJson): boolean {
    const load = this.loads.get(json);
    return load !== undefined && this.cache.isCurrent(load, this.clock.now());
  }
}
