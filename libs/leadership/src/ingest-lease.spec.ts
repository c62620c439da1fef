import { IngestLease, LEASE_TIMINGS } from './ingest-lease';
import { type LeaseStore, LeaseTaken } from './lease-store';

/**
 * The bucket's rules in memory: `create` only while no live entry exists,
 * `renew` only for the last revision, entries gone `ttlMs` after their last
 * write. `reachable` false makes every call fail as a cut-off NATS would.
 */
class MemoryLeaseStore {
  reachable = true;
  private revision = 0;
  private readonly entries = new Map<string, { holder: string; revision: number; writtenAt: number }>();
  private readonly candidates = new Map<string, number>();

  create(key: string, holder: string): Promise<number> {
    return this.call(() => {
      if (this.live(key)) throw new LeaseTaken(key);
      return this.write(key, holder);
    });
  }

  renew(key: string, holder: string, revision: number): Promise<number> {
    return this.call(() => {
      if (this.live(key)?.revision !== revision) throw new LeaseTaken(key);
      return this.write(key, holder);
    });
  }

  release(key: string, revision: number): Promise<void> {
    return this.call(() => {
      if (this.live(key)?.revision === revision) this.entries.delete(key);
    });
  }

  advertise(key: string, holder: string): Promise<void> {
    return this.call(() => void this.candidates.set(`${key}/${holder}`, performance.now()));
  }

  hasCandidate(key: string, holder: string): Promise<boolean> {
    return this.call(() =>
      [...this.candidates].some(
        ([name, at]) =>
          name.startsWith(`${key}/`) &&
          name !== `${key}/${holder}` &&
          performance.now() - at < LEASE_TIMINGS.ttlMs,
      ),
    );
  }

  withdraw(key: string, holder: string): Promise<void> {
    return this.call(() => void this.candidates.delete(`${key}/${holder}`));
  }

  holderOf(key: string): string | undefined {
    return this.live(key)?.holder;
  }

  private live(key: string) {
    const entry = this.entries.get(key);
    return entry && performance.now() - entry.writtenAt < LEASE_TIMINGS.ttlMs ? entry : undefined;
  }

  private write(key: string, holder: string): number {
    this.entries.set(key, { holder, revision: ++this.revision, writtenAt: performance.now() });
    return this.revision;
  }

  private async call<T>(work: () => T): Promise<T> {
    await Promise.resolve();
    if (!this.reachable) throw new Error('NATS is not connected');
    return work();
  }
}

interface Claimant {
  readonly lease: IngestLease;
  readonly events: string[];
  database: boolean;
}

describe('IngestLease', () => {
  let store: MemoryLeaseStore;

  beforeEach(() => {
    jest.useFakeTimers();
    store = new MemoryLeaseStore();
  });

  afterEach(() => jest.useRealTimers());

  function claimant(holder: string): Claimant {
    const events: string[] = [];
    const claim: Claimant = { events, database: true } as Claimant;
    Object.assign(claim, {
      lease: new IngestLease(
        store as unknown as LeaseStore,
        'feed',
        holder,
        {
          activate: (epoch) => void events.push(`active ${epoch}`),
          deactivate: () => void events.push('standby'),
        },
        { databaseReachable: () => Promise.resolve(claim.database) },
      ),
    });
    return claim;
  }

  async function advance(ms: number): Promise<void> {
    await jest.advanceTimersByTimeAsync(ms);
  }

  it('lets exactly one of two processes lead, with a growing epoch on each takeover', async () => {
    const a = claimant('a');
    const b = claimant('b');
    a.lease.start();
    await advance(10);
    b.lease.start();
    await advance(5_000);
    expect(a.lease.holds()).toBe(true);
    expect(b.lease.holds()).toBe(false);
    expect(b.events).toEqual([]);
    await a.lease.stop();
    await advance(LEASE_TIMINGS.standbyEveryMs + 10);
    expect(b.lease.holds()).toBe(true);
    expect(b.lease.epoch).toBeGreaterThan(a.lease.epoch);
    await b.lease.stop();
  });

  it('fences a holder that cannot renew before its entry can expire, and the standby takes over after', async () => {
    const a = claimant('a');
    const b = claimant('b');
    a.lease.start();
    await advance(10);
    b.lease.start();
    await advance(1_000);
    const cutAt = performance.now();
    store.reachable = false;
    // b is cut too (one store here), so nothing can take the lease meanwhile.
    await advance(LEASE_TIMINGS.fenceAfterMs);
    expect(a.lease.holds()).toBe(false);
    expect(a.events).toEqual(['active 1', 'standby']);
    expect(performance.now() - cutAt).toBeLessThan(LEASE_TIMINGS.ttlMs);
    store.reachable = true;
    await advance(LEASE_TIMINGS.ttlMs + LEASE_TIMINGS.standbyEveryMs);
    expect([a.lease.holds(), b.lease.holds()].filter(Boolean)).toHaveLength(1);
    await Promise.all([a.lease.stop(), b.lease.stop()]);
  });

  it('hands over when the holder loses PostgreSQL and a standby still reaches it, not otherwise', async () => {
    const a = claimant('a');
    const b = claimant('b');
    b.database = false;
    a.lease.start();
    await advance(10);
    b.lease.start();
    await advance(1_000);
    a.database = false;
    await advance(5_000);
    expect(a.lease.holds()).toBe(true);
    b.database = true;
    await advance(3 * LEASE_TIMINGS.renewEveryMs + LEASE_TIMINGS.standbyEveryMs);
    expect(a.lease.holds()).toBe(false);
    expect(b.lease.holds()).toBe(true);
    expect(store.holderOf('feed')).toBe('b');
    await Promise.all([a.lease.stop(), b.lease.stop()]);
  });

  it("probes PostgreSQL with each of the holder's renewals, on no timer of its own", async () => {
    let probes = 0;
    const lease = new IngestLease(
      store as unknown as LeaseStore,
      'feed',
      'a',
      { activate: () => undefined, deactivate: () => undefined },
      { databaseReachable: () => Promise.resolve(++probes > 0) },
    );
    lease.start();
    await advance(10);
    expect(lease.holds()).toBe(true);
    const before = probes;
    await advance(10 * LEASE_TIMINGS.renewEveryMs);
    expect(probes - before).toBeGreaterThanOrEqual(9);
    expect(probes - before).toBeLessThanOrEqual(11);
    // The next renewal and the fence that fires if it fails: nothing else wakes a steady holder.
    expect(jest.getTimerCount()).toBe(2);
    await lease.stop();
  });

  it('probes again after a stop that came while a failed probe waited to be confirmed', async () => {
    let probes = 0;
    let reachable = false;
    const lease = new IngestLease(
      store as unknown as LeaseStore,
      'feed',
      'a',
      { activate: () => undefined, deactivate: () => undefined },
      { databaseReachable: () => Promise.resolve(++probes > 0 && reachable) },
    );
    lease.start();
    // Acquired at once; the first renewal (a standby's period later) probes, fails, and waits to confirm.
    await advance(LEASE_TIMINGS.standbyEveryMs + LEASE_TIMINGS.reprobeAfterFailureMs / 2);
    const failedAt = probes;
    expect(failedAt).toBe(2);
    await lease.stop();
    reachable = true;
    lease.start();
    await advance(5 * LEASE_TIMINGS.renewEveryMs);
    expect(lease.holds()).toBe(true);
    expect(probes - failedAt).toBeGreaterThanOrEqual(3);
    await lease.stop();
  });
});
