import { performance } from 'node:perf_hooks';
import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface LabelledValue {
  readonly labels: Record<string, string>;
  readonly value: number;
}

/**
 * How often the event-loop lag histogram samples the loop. Each sample wakes the process: on the
 * 2-core bench machine a wake-up of a process holding a big book cost about 0.3 ms of CPU, so 100
 * ms sampling alone was about a tenth of a quiet odds poller's CPU. At one second a stall of a
 * second or more is seen every time and a shorter one in proportion to its length; saturation of
 * any length shows in `nodejs_eventloop_utilization_ratio`, read at scrape without a timer.
 */
const EVENT_LOOP_SAMPLE_MS = 1000;

/**
 * The process's Prometheus registry. Components keep plain counters of their
 * own; they are read here at scrape time through `observe`, so no domain code
 * depends on prom-client. Label values must come from small fixed sets
 * (routes, states, book names), never from keys, ids or user input.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;

  constructor() {
    collectDefaultMetrics({
      register: this.registry,
      eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS,
    });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by method, matched route and status code',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [this.registry],
    });
    let since = performance.eventLoopUtilization();
    this.observe(
      'nodejs_eventloop_utilization_ratio',
      'Share of the time since the previous scrape the event loop spent running callbacks (0 to 1)',
      () => {
        const now = performance.eventLoopUtilization();
        const busy = performance.eventLoopUtilization(now, since).utilization;
        since = now;
        return busy;
      },
    );
  }

  /** A gauge whose value is read from `read` at every scrape. */
  observe(
    name: string,
    help: string,
    read: () => number | readonly LabelledValue[],
    labelNames: readonly string[] = [],
  ): void {
    if (this.registry.getSingleMetric(name)) return;
    new Gauge({
      name,
      help,
      labelNames: [...labelNames],
      registers: [this.registry],
      collect() {
        const value = read();
        this.reset();
        if (typeof value === 'number') this.set(value);
        else for (const entry of value) this.set(entry.labels, entry.value);
      },
    });
  }

  /**
   * A counter read from monotonically growing numbers kept by a component;
   * prom-client counters cannot be set, so the growth is added at scrape.
   */
  observeCounter(
    name: string,
    help: string,
    read: () => number | readonly LabelledValue[],
    labelNames: readonly string[] = [],
  ): void {
    if (this.registry.getSingleMetric(name)) return;
    const reported = new Map<string, number>();
    new Counter({
      name,
      help,
      labelNames: [...labelNames],
      registers: [this.registry],
      collect() {
        const value = read();
        const entries = typeof value === 'number' ? [{ labels: {}, value }] : value;
        for (const entry of entries) {
          const id = JSON.stringify(entry.labels);
          const before = reported.get(id) ?? 0;
          if (entry.value > before) this.inc(entry.labels, entry.value - before);
          else if (!reported.has(id)) this.inc(entry.labels, 0);
          reported.set(id, Math.max(before, entry.value));
        }
      },
    });
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
