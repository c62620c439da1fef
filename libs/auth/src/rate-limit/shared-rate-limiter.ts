import { type Admission, type RateLimit, TokenBucket } from './token-bucket';

/** Requests admitted for one key since the last report, with the key's limit as the sender knew it. */
export interface KeyUsage {
  readonly n: number;
  readonly rps: number;
  readonly burst: number;
}

/** Requests admitted per key id since the last report. */
export type UsageCounts = Record<string, KeyUsage>;

/**
 * One replica's buckets, one per key, and the bookkeeping that lets every
 * replica of a service share a key's limit: what this replica admitted is
 * collected for the next report (`takeUsage`), and what other replicas report
 * is taken from the same buckets (`applyOthersUsage`). With no reports at all
 * (NATS down) each replica simply enforces the limit on its own.
 */
export class SharedRateLimiter {
  private readonly buckets = new Map<string, TokenBucket>();
  private usage = new Map<string, { n: number; limit: RateLimit }>();

  get size(): number {
    return this.buckets.size;
  }

  admit(keyId: string, limit: RateLimit, now: number): Admission {
    const admission = this.bucket(keyId, limit, now).take(now);
    if (admission.allowed) {
      const used = this.usage.get(keyId);
      this.usage.set(keyId, { n: (used?.n ?? 0) + 1, limit });
    }
    return admission;
  }

  /** What this replica admitted since the last call, to report to the others. */
  takeUsage(): UsageCounts | undefined {
    if (this.usage.size === 0) return undefined;
    const counts: UsageCounts = {};
    for (const [keyId, { n, limit }] of this.usage) counts[keyId] = { n, rps: limit.rps, burst: limit.burst };
    this.usage = new Map();
    return counts;
  }

  /**
   * Another replica's report. A key this replica has not served yet gets a
   * bucket with the limit the report names, so its first request here
   * already counts what the others spent. Malformed entries are skipped.
   */
  applyOthersUsage(counts: UsageCounts, now: number): void {
    for (const [keyId, usage] of Object.entries(counts)) {
      if (!isKeyUsage(usage)) continue;
      const bucket =
        this.buckets.get(keyId) ?? this.bucket(keyId, { rps: usage.rps, burst: usage.burst }, now);
      bucket.deduct(usage.n, now);
    }
  }

  /** Drops buckets that have filled up again: a new one would be the same. */
  prune(now: number): void {
    for (const [keyId, bucket] of this.buckets) {
      if (!this.usage.has(keyId) && bucket.isFull(now)) this.buckets.delete(keyId);
    }
  }

  private bucket(keyId: string, limit: RateLimit, now: number): TokenBucket {
    let bucket = this.buckets.get(keyId);
    if (!bucket) {
      bucket = new TokenBucket(limit, now);
      this.buckets.set(keyId, bucket);
    } else {
      bucket.retune(limit, now);
    }
    return bucket;
  }
}

function isKeyUsage(value: unknown): value is KeyUsage {
  if (typeof value !== 'object' || value === null) return false;
  const { n, rps, burst } = value as Record<string, unknown>;
  return [n, rps, burst].every((part) => typeof part === 'number' && Number.isFinite(part) && part > 0);
}
