import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { Metrics } from './metrics';

/**
 * What operators watch on the upstream side: how long polls take, how often
 * they fail, when one last succeeded, and whether each feed counts as
 * healthy. `upstream` and `feed` labels are fixed names chosen in code
 * (`livescores-catalog`, a book's name), never URLs or ids.
 */
@Injectable()
export class UpstreamMonitor {
  private readonly duration: Histogram<'upstream'>;
  private readonly errors: Counter<'upstream'>;
  private readonly lastSuccess: Gauge<'upstream'>;
  private readonly feeds = new Map<string, () => boolean>();

  constructor(metrics: Metrics) {
    const registers = [metrics.registry];
    this.duration = new Histogram({
      name: 'upstream_poll_duration_seconds',
      help: 'Duration of upstream polls, successful or not',
      labelNames: ['upstream'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.errors = new Counter({
      name: 'upstream_errors_total',
      help: 'Upstream polls or stream connections that failed',
      labelNames: ['upstream'],
      registers,
    });
    this.lastSuccess = new Gauge({
      name: 'upstream_last_success_timestamp_seconds',
      help: 'Unix time of the last successful upstream poll',
      labelNames: ['upstream'],
      registers,
    });
    const feeds = this.feeds;
    new Gauge({
      name: 'feed_healthy',
      help: '1 while the feed counts as healthy, else 0',
      labelNames: ['feed'],
      registers,
      collect() {
        this.reset();
        for (const [feed, read] of feeds) this.set({ feed }, read() ? 1 : 0);
      },
    });
  }

  recordPoll(upstream: string, seconds: number, ok: boolean): void {
    this.duration.observe({ upstream }, seconds);
    if (ok) this.lastSuccess.set({ upstream }, Date.now() / 1000);
    else this.errors.inc({ upstream });
  }

  recordError(upstream: string): void {
    this.errors.inc({ upstream });
  }

  /** Reports a feed's health at every scrape from `read`. */
  watchFeed(feed: string, read: () => boolean): void {
    this.feeds.set(feed, read);
  }
}
