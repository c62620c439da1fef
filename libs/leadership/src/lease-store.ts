import { type KV, StorageType } from 'nats';
import type { NatsLink } from '@app/messaging';

/** The lease is held by someone else (create) or was taken from us (renew, release). */
export class LeaseTaken extends Error {
  constructor(key: string) {
    super(`lease ${key} is held by another process`);
  }
}

/** A JetStream request waits this long: a renewal that cannot complete soon is as good as failed. */
const REQUEST_TIMEOUT_MS = 1_000;

/** JetStream's answer when the expected revision of a key is not its last one. */
const WRONG_LAST_SEQUENCE = 10071;

/**
 * Where ingest leases live: a JetStream key-value bucket whose entries expire
 * `ttlMs` after they were last written (the bucket's max age) and whose
 * writes can be conditional on the entry's revision. `create` succeeds only
 * while no live entry exists, `renew` only for the revision the holder last
 * wrote, so the server, not the processes, decides who holds a lease, and an
 * entry nobody renews disappears by itself.
 */
export class LeaseStore {
  readonly bucket: string;

  constructor(
    private readonly nats: NatsLink,
    private readonly ttlMs: number,
  ) {
    const prefix = nats.subjectPrefix;
    this.bucket = `${prefix ? `${prefix}_` : ''}INGEST_LEASES`.replace(/[^A-Za-z0-9_-]/g, '_');
  }

  /** Takes a free lease and resolves with its revision, the new holder's epoch. */
  async create(key: string, holder: string): Promise<number> {
    try {
      return await (await this.kv()).create(key, encode(holder));
    } catch (error) {
      throw isWrongRevision(error) ? new LeaseTaken(key) : error;
    }
  }

  /** Extends a held lease; resolves with the revision the next renewal must name. */
  async renew(key: string, holder: string, revision: number): Promise<number> {
    try {
      return await (await this.kv()).update(key, encode(holder), revision);
    } catch (error) {
      throw isWrongRevision(error) ? new LeaseTaken(key) : error;
    }
  }

  /** Gives a held lease up, so a standby can take it at once instead of waiting for it to expire. */
  async release(key: string, revision: number): Promise<void> {
    try {
      await (await this.kv()).delete(key, { previousSeq: revision });
    } catch (error) {
      if (!isWrongRevision(error)) throw error;
    }
  }

  /** Records (until it expires) that `holder` could lead `key` with every dependency reachable. */
  async advertise(key: string, holder: string): Promise<void> {
    await (await this.kv()).put(candidateKey(key, holder), encode(holder));
  }

  /** Whether any process other than `holder` advertised itself for `key` within the lease's lifetime. */
  async hasCandidate(key: string, holder: string): Promise<boolean> {
    const keys = await (await this.kv()).keys(`${key}.candidate.*`);
    const own = candidateKey(key, holder);
    for await (const found of keys) if (found !== own) return true;
    return false;
  }

  /** Removes `holder`'s advertisement (a stopping process is no candidate). */
  async withdraw(key: string, holder: string): Promise<void> {
    await (await this.kv()).delete(candidateKey(key, holder));
  }

  /** The bucket, created on first use with the lease's lifetime as its entries' max age. */
  private kv(): Promise<KV> {
    return this.nats.keyValue(
      this.bucket,
      { ttl: this.ttlMs, history: 1, storage: StorageType.File },
      REQUEST_TIMEOUT_MS,
    );
  }
}

function candidateKey(key: string, holder: string): string {
  return `${key}.candidate.${holder}`;
}

const encoder = new TextEncoder();

function encode(text: string): Uint8Array {
  return encoder.encode(text);
}

function isWrongRevision(error: unknown): boolean {
  const apiError = (error as { api_error?: { err_code?: number } } | null)?.api_error;
  return apiError?.err_code === WRONG_LAST_SEQUENCE || /wrong last sequence/i.test(String(error));
}
