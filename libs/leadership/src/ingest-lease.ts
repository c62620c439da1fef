import { Logger } from '@nestjs/common';
import { LeaseStore, LeaseTaken } from './lease-store';

/**
 * Lease timings. The server forgets an entry `ttlMs` after its last write;
 * the holder stops publishing `fenceAfterMs` after it *sent* its last
 * successful renewal, so it has stopped at least `ttlMs - fenceAfterMs`
 * before any standby can create the entry again, whatever the network did
 * to the answers. Standbys try every `standbyEveryMs`, so a released lease
 * is taken that soon and an expired one within `ttlMs + standbyEveryMs`.
 */
export interface LeaseTimings {
  readonly ttlMs: number;
  readonly renewEveryMs: number;
  readonly fenceAfterMs: number;
  readonly standbyEveryMs: number;
  /** Consecutive failed database probes after which a holder hands over to a healthier standby. */
  readonly databaseFailuresToResign: number;
  /** A holder confirms a failed probe sooner than it probes normally, so a hand-over is not late. */
  readonly reprobeAfterFailureMs: number;
}

export const LEASE_TIMINGS: LeaseTimings = {
  ttlMs: 2_500,
  renewEveryMs: 500,
  fenceAfterMs: 1_500,
  standbyEveryMs: 250,
  databaseFailuresToResign: 2,
  reprobeAfterFailureMs: 150,
};

/** What a lease drives: the ingest work of one feed, started and stopped with leadership. */
export interface LeaseHolder {
  /** Starts reading the upstream and publishing; `epoch` grows with every new holder. */
  activate(epoch: number): Promise<void> | void;
  /** Stops reading and publishing; `holds()` already answers false when this is called. */
  deactivate(): Promise<void> | void;
}

export interface LeaseProbes {
  /** Whether this process reaches PostgreSQL now (answers within a second). */
  databaseReachable(): Promise<boolean>;
}

export type LeaseRole = 'active' | 'standby';

/**
 * One process's claim on one feed's ingest: active while it holds the lease
 * in the `LeaseStore`, standby otherwise. A holder renews twice a second and
 * fences itself (stops its `LeaseHolder` and answers `holds()` false) as
 * soon as it cannot prove it still holds the lease; a holder that loses
 * PostgreSQL while a standby still reaches it resigns, so the standby takes
 * over. Transitions of the holder run one at a time, in order.
 */
export class IngestLease {
  private readonly logger = new Logger(IngestLease.name);
  private role: LeaseRole = 'standby';
  private revision = 0;
  private currentEpoch = 0;
  private renewedAt = Number.NEGATIVE_INFINITY;
  private databaseFailures = 0;
  private timer?: NodeJS.Timeout;
  /** The holder's PostgreSQL probe under way: started with a renewal, never awaited by it. */
  private probing?: Promise<void>;
  /** Confirms a failed probe sooner than the next renewal would. */
  private probeTimer?: NodeJS.Timeout;
  private fenceTimer?: NodeJS.Timeout;
  private transitions: Promise<void> = Promise.resolve();
  /** The tick under way: a stop waits for it, so a renewal landing late cannot outlive the release. */
  private ticking: Promise<void> = Promise.resolve();
  private running = false;
  private lastFault = '';

  constructor(
    private readonly store: LeaseStore,
    readonly key: string,
    private readonly holderId: string,
    private readonly holder: LeaseHolder,
    private readonly probes: LeaseProbes,
    private readonly timings: LeaseTimings = LEASE_TIMINGS,
  ) {}

  get state(): LeaseRole {
    return this.role;
  }

  get epoch(): number {
    return this.currentEpoch;
  }

  /**
   * True only while this process holds the lease and its last renewal was
   * sent less than `fenceAfterMs` ago: check it right before publishing.
   */
  holds(): boolean {
    return this.role === 'active' && performance.now() - this.renewedAt < this.timings.fenceAfterMs;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Graceful stop: fences, stops the holder, then releases the lease so a standby takes it at once. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    clearTimeout(this.probeTimer);
    this.probeTimer = undefined;
    await this.ticking;
    const wasActive = this.role === 'active';
    if (wasActive) this.fence('this process is stopping');
    await this.transitions;
    await Promise.allSettled([
      wasActive ? this.store.release(this.key, this.revision) : Promise.resolve(),
      this.store.withdraw(this.key, this.holderId),
    ]);
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.ticking = this.tick();
    }, delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.role === 'active') {
      this.probeDatabase();
      await this.renew();
      this.schedule(this.timings.renewEveryMs);
    } else {
      await this.tryAcquire();
      this.schedule(this.timings.standbyEveryMs);
    }
  }

  private async tryAcquire(): Promise<void> {
    if (await this.probes.databaseReachable())
      await this.quietly(this.store.advertise(this.key, this.holderId));
    // Without PostgreSQL, leave a free lease to a standby that reaches it; take it only if none does.
    else if (await this.hasHealthierCandidate()) return;
    if (!this.running) return;
    const sentAt = performance.now();
    try {
      const revision = await this.store.create(this.key, this.holderId);
      if (!this.running) {
        await this.quietly(this.store.release(this.key, revision));
        return;
      }
      this.revision = revision;
      this.currentEpoch = revision;
      this.renewed(sentAt);
      this.role = 'active';
      this.lastFault = '';
      this.logger.log(`Ingest ${this.key}: active (epoch ${revision})`);
      this.enqueue(() => this.holder.activate(revision));
    } catch (error) {
      if (!(error instanceof LeaseTaken)) this.fault(error);
    }
  }

  private async renew(): Promise<void> {
    const sentAt = performance.now();
    try {
      const revision = await this.store.renew(this.key, this.holderId, this.revision);
      if (this.role !== 'active') return;
      this.revision = revision;
      this.renewed(sentAt);
    } catch (error) {
      if (this.role !== 'active') return;
      if (error instanceof LeaseTaken) this.fence('another process holds the lease');
      else this.fault(error);
    }
  }

  /**
   * The holder's PostgreSQL probe, started in the renewal's turn: one wake-up
   * for both, where a timer of its own woke the process as often again. It
   * is not awaited there, so a slow probe never delays a renewal, and none
   * starts while one is under way or a failed one waits to be confirmed.
   */
  private probeDatabase(): void {
    if (this.probing || this.probeTimer) return;
    const epoch = this.currentEpoch;
    const stillHolding = () => this.running && this.role === 'active' && this.currentEpoch === epoch;
    this.probing = this.checkDatabase()
      .catch((error: unknown) => this.fault(error))
      .then(() => {
        this.probing = undefined;
        const confirming =
          this.databaseFailures > 0 && this.databaseFailures < this.timings.databaseFailuresToResign;
        if (!confirming || !stillHolding()) return;
        this.probeTimer = setTimeout(() => {
          this.probeTimer = undefined;
          if (stillHolding()) this.probeDatabase();
        }, this.timings.reprobeAfterFailureMs);
        this.probeTimer.unref();
      });
  }

  /** A holder cut from PostgreSQL keeps publishing only while no standby could do better. */
  private async checkDatabase(): Promise<void> {
    if (await this.probes.databaseReachable()) {
      this.databaseFailures = 0;
      return;
    }
    this.databaseFailures++;
    if (this.databaseFailures < this.timings.databaseFailuresToResign || this.role !== 'active') return;
    if (!(await this.hasHealthierCandidate()) || this.role !== 'active') return;
    const revision = this.revision;
    this.fence('PostgreSQL is out of reach and a standby reaches it');
    await this.transitions;
    await this.quietly(this.store.release(this.key, revision));
  }

  /** Whether another process advertised lately that it reaches PostgreSQL. */
  private async hasHealthierCandidate(): Promise<boolean> {
    try {
      return await this.store.hasCandidate(this.key, this.holderId);
    } catch (error) {
      this.fault(error);
      return false;
    }
  }

  private renewed(sentAt: number): void {
    this.renewedAt = sentAt;
    clearTimeout(this.fenceTimer);
    const deadline = sentAt + this.timings.fenceAfterMs - performance.now();
    // Cleared by the next renewal: firing means none succeeded in time.
    this.fenceTimer = setTimeout(() => {
      if (this.role === 'active') this.fence(`no renewal within ${this.timings.fenceAfterMs} ms`);
    }, deadline);
    this.fenceTimer.unref();
  }

  private fence(reason: string): void {
    clearTimeout(this.fenceTimer);
    this.role = 'standby';
    this.databaseFailures = 0;
    this.logger.warn(`Ingest ${this.key}: standby (${reason})`);
    this.enqueue(() => this.holder.deactivate());
  }

  private enqueue(transition: () => Promise<void> | void): void {
    this.transitions = this.transitions.then(transition).catch((error: unknown) => {
      this.logger.error(`Ingest ${this.key}: leadership change failed: ${String(error)}`);
    });
  }

  private async quietly(work: Promise<void>): Promise<void> {
    try {
      await work;
    } catch (error) {
      this.fault(error);
    }
  }

  /** Logs a lease fault once until it changes: a NATS outage would otherwise log every tick. */
  private fault(error: unknown): void {
    const text = error instanceof Error ? error.message : String(error);
    if (text === this.lastFault) return;
    this.lastFault = text;
    this.logger.warn(`Ingest ${this.key}: lease store unavailable (${text})`);
  }
}
