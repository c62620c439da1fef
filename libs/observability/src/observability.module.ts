import { Global, Module } from '@nestjs/common';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';
import { UpstreamMonitor } from './upstream-monitor';

/**
 * `/metrics` and the collectors every service shares: Node's defaults and
 * HTTP durations (through the middleware). Other libraries and feature
 * modules report into `Metrics` (`observe*`), injected as optional, so this
 * library knows none of them.
 */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [Metrics, UpstreamMonitor],
  exports: [Metrics, UpstreamMonitor],
})
export class ObservabilityModule {}
