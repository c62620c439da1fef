import type { Clock } from '@app/clock';
import type { Principal } from './key-record';

interface Entry {
  readonly principal: Principal | null;
  readonly storedAt: number;
}

export type CacheLookup = { readonly principal: Principal | null } | undefined;

/**
 * Key lookups by hash, kept at most `ttlMs` (unknown keys too, so guessing
 * cannot hammer the database). Invalidation bumps a generation: a lookup that
 * started before it may not store its now-stale answer afterwards.
 */
export class KeyDecisionCache {
  private readonly entries = new Map<string, Entry>();
  private currentGeneration = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly clock: Clock,
    private readonly maxEntries = 10_000,
  ) {}

  get generation(): number {
    return this.currentGeneration;
  }

  get size(): number {
    return this.entries.size;
  }

  get(hash: string): CacheLookup {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    const age = this.clock.now() - entry.storedAt;
    if (age < 0 || age >= this.ttlMs) {
      this.entries.delete(hash);
      return undefined;
    }
    return { principal: entry.principal };
  }

  /** Stores a lookup made during `generation`; returns false when that is outdated. */
  set(hash: string, principal: Principal | null, generation: number): boolean {
    if (generation !== this.currentGeneration || this.ttlMs <= 0) return false;
    this.entries.delete(hash);
    this.entries.set(hash, { principal, storedAt: this.clock.now() });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    return true;
  }

  invalidateAll(): void {
    this.currentGeneration += 1;
    this.entries.clear();
  }

  /**
   * Drops what a change to one key or account can affect: that key's or
   * account's entries, and every "unknown key" entry (the change may have
   * issued it). Other keys stay cached, so a key change during a database
   * outage does not turn every cached caller away.
   */
  invalidate(scope: { readonly keyId?: string; readonly accountId?: string }): void {
    if (scope.keyId === undefined && scope.accountId === undefined) {
      this.invalidateAll();
      return;
    }
    this.currentGeneration += 1;
    for (const [hash, { principal }] of this.entries) {
      if (!principal || principal.keyId === scope.keyId || principal.accountId === scope.accountId) {
        this.entries.delete(hash);
      }
    }
  }
}
