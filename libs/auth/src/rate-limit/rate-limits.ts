import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import { Clock } from '@app/clock';
import { NatsEventClient, NatsLink, type RateUsedEvent, Subjects } from '@app/messaging';
import { Metrics } from '@app/observability';
import type { Principal } from '../key-record';
import { SharedRateLimiter } from './shared-rate-limiter';
import type { Admission, RateLimit } from './token-bucket';

export const RATE_LIMIT_OPTIONS = Symbol('RATE_LIMIT_OPTIONS');

export interface RateLimitOptions {
  /** The REST rate of keys without their own (RATE_LIMIT_RPS, RATE_LIMIT_BURST). */
  readonly defaultRate: RateLimit;
  /** The service whose limits this process enforces; only its own replicas share them. */
  readonly service: string;
  /** How often this replica reports what it admitted. */
  readonly reportEveryMs?: number;
}

/** Short enough that replicas hear of each other's use before a burst is spent twice over for long. */
export const RATE_REPORT_MS = 100;

/**
 * The per-key REST limits of one replica (ADR 015): a token bucket per key,
 * and every ~100 ms a report on NATS of what this replica admitted, which the
 * other replicas of the service take from their own buckets. Without NATS no
 * reports go out or come in, and each replica enforces the limit alone: the
 * limits loosen, requests are never refused for want of NATS.
 *
 * The report's timer is armed by use and runs only while buckets are held: an
 * idle replica is not woken ten times a second for nothing (each wake-up of a
 * big process cost a few hundred microseconds of CPU on the 2-core bench).
 */
@Injectable()
export class RateLimits implements OnModuleInit, OnModuleDestroy {
  private readonly limiter = new SharedRateLimiter();
  private readonly replica = randomUUID();
  private timer?: NodeJS.Timeout;
  private stopped = false;
  /** Requests refused since start, read by the metrics endpoint. */
  readonly stats = { limited: 0 };

  constructor(
    @Inject(RATE_LIMIT_OPTIONS) private readonly options: RateLimitOptions,
    private readonly clock: Clock,
    private readonly nats: NatsLink,
    private readonly events: NatsEventClient,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  onModuleInit(): void {
    this.metrics?.observeCounter(
      'rate_limited_total',
      'REST requests refused with 429 because their key was over its rate',
      () => this.stats.limited,
    );
  }

  onModuleDestroy(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The key's own rate, else the service default. */
  limitOf(principal: Principal): RateLimit {
    return principal.rate ?? this.options.defaultRate;
  }

  /** One REST request of an authenticated key. */
  admit(principal: Principal): Admission {
    const admission = this.limiter.admit(principal.keyId, this.limitOf(principal), this.clock.now());
    if (!admission.allowed) this.stats.limited += 1;
    this.scheduleReport();
    return admission;
  }

  /** Another replica's report (`auth.rate.used`); reports of other services and our own are skipped. */
  applyReport(event: Partial<RateUsedEvent> | undefined): void {
    if (!event || event.service !== this.options.service || event.replica === this.replica) return;
    if (typeof event.used !== 'object' || event.used === null) return;
    this.limiter.applyOthersUsage(event.used, this.clock.now());
    this.scheduleReport();
  }

  /** Sends what this replica admitted since the last report; drops it while NATS is down. */
  report(): void {
    const used = this.limiter.takeUsage();
    this.limiter.prune(this.clock.now());
    // Buckets still filling keep the timer, so they are pruned once full.
    if (this.limiter.size > 0) this.scheduleReport();
    if (!used || !this.nats.isConnected()) return;
    void this.events.emitEvent(Subjects.authRateUsed, {
      service: this.options.service,
      replica: this.replica,
      used,
    });
  }

  private scheduleReport(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.report();
    }, this.options.reportEveryMs ?? RATE_REPORT_MS);
    this.timer.unref();
  }
}
