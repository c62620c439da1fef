import { Global, Module, type OnModuleInit } from '@nestjs/common';
import { KeyRegistry } from '@app/auth';
import { NatsClient, type NatsState } from '@app/messaging';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';
import { UpstreamMonitor } from './upstream-monitor';

const NATS_STATES: readonly NatsState[] = ['connecting', 'connected', 'reconnecting', 'closed'];

/**
 * `/metrics` and the collectors every service shares: Node's defaults, HTTP
 * durations (through the middleware), NATS connection state and the key
 * cache. Feature modules add their own through `Metrics.observe*`.
 */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [Metrics, UpstreamMonitor],
  exports: [Metrics, UpstreamMonitor],
})
export class ObservabilityModule implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    private readonly nats: NatsClient,
    private readonly keys: KeyRegistry,
  ) {}

  onModuleInit(): void {
    this.metrics.observe(
      'nats_connection_state',
      'NATS connection state of this process (1 for the current state)',
      () => NATS_STATES.map((state) => ({ labels: { state }, value: this.nats.state === state ? 1 : 0 })),
      ['state'],
    );
    this.metrics.observeCounter(
      'auth_cache_hits_total',
      'Key decisions answered from the cache',
      () => this.keys.stats.hits,
    );
    this.metrics.observeCounter(
      'auth_cache_misses_total',
      'Key decisions that needed PostgreSQL',
      () => this.keys.stats.misses,
    );
  }
}
