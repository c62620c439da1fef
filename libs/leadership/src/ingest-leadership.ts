import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { type BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { DependencyHealth } from '@app/health';
import { NatsLink } from '@app/messaging';
import { Metrics } from '@app/observability';
import { probeCarrying } from './carried-probe';
import { IngestLease, LEASE_TIMINGS, type LeaseHolder, type LeaseRole } from './ingest-lease';
import { LeaseStore } from './lease-store';

/**
 * A lease's PostgreSQL probe gives up sooner than the health endpoint's: two
 * failed probes start a hand-over, which must complete well within 5 s.
 */
const LEASE_PROBE_TIMEOUT_MS = 500;

interface Claim {
  readonly lease: IngestLease;
  /** The `feed` labels this lease's work reports under (as `feed_healthy` does). */
  readonly feeds: readonly string[];
}

/**
 * The leases of this process's ingest work (one per app, one per sportsbook
 * in odds-passthrough): it starts them, reports `ingest_active` and the
 * roles for the health body, and on a graceful stop releases every lease it
 * holds so that a standby takes over at once.
 */
@Injectable()
export class IngestLeadership implements BeforeApplicationShutdown {
  private readonly store: LeaseStore;
  private readonly claims = new Map<string, Claim>();
  /** Writes waiting to stand in for their lease's next PostgreSQL probe, by lease key. */
  private readonly carried = new Map<string, () => Promise<unknown>>();
  private readonly holderId = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`.replace(
    /[^A-Za-z0-9_-]/g,
    '_',
  );

  constructor(
    nats: NatsLink,
    metrics: Metrics,
    private readonly dependencies: DependencyHealth,
  ) {
    this.store = new LeaseStore(nats, LEASE_TIMINGS.ttlMs);
    metrics.observe(
      'ingest_active',
      '1 while this process reads and publishes the feed, 0 while it stands by',
      () =>
        [...this.claims.values()].flatMap(({ lease, feeds }) =>
          feeds.map((feed) => ({ labels: { feed }, value: lease.holds() ? 1 : 0 })),
        ),
      ['feed'],
    );
  }

  /** Competes for `key` from now on, running `holder` while this process holds it. */
  lead(key: string, feeds: readonly string[], holder: LeaseHolder): IngestLease {
    const lease = new IngestLease(this.store, key, this.holderId, holder, {
      databaseReachable: () => this.probeDatabase(key),
    });
    this.claims.set(key, { lease, feeds });
    lease.start();
    return lease;
  }

  /** Whether this process may publish for `key` now (see IngestLease.holds). */
  holds(key: string): boolean {
    return this.claims.get(key)?.lease.holds() ?? false;
  }

  /**
   * Sends `write` as the next PostgreSQL probe of `key`'s lease instead of `SELECT 1`, if this
   * process still holds `key` by then; a newer write replaces one still waiting. A holder's write
   * made once a second anyway (the stored feed health) then proves PostgreSQL reachable without a
   * round trip of its own, sent when the probe would have been, so a lost PostgreSQL is noticed no
   * later (see probeCarrying).
   */
  carryOnProbe(key: string, write: () => Promise<unknown>): void {
    this.carried.set(key, write);
  }

  /** Each lease's role, by key; empty in a process without ingest work. */
  roles(): Record<string, LeaseRole> {
    return Object.fromEntries([...this.claims].map(([key, { lease }]) => [key, lease.state]));
  }

  private probeDatabase(key: string): Promise<boolean> {
    const write = this.carried.get(key);
    this.carried.delete(key);
    return probeCarrying(
      this.holds(key) ? write : undefined,
      () => this.dependencies.databaseReachable(LEASE_PROBE_TIMEOUT_MS),
      LEASE_PROBE_TIMEOUT_MS,
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.claims.values()].map(({ lease }) => lease.stop()));
  }
}
