import { Controller, Get, HttpCode, Optional, ServiceUnavailableException } from '@nestjs/common';
import { Public } from '@app/auth';
import { DependencyHealth, Readiness } from '@app/health';
import { IngestLeadership } from '@app/leadership';

@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly dependencies: DependencyHealth,
    private readonly readiness: Readiness,
    @Optional() private readonly leadership?: IngestLeadership,
  ) {}

  /** Liveness: always 200; says "degraded" when PostgreSQL or NATS is out of reach. */
  @Get()
  @HttpCode(200)
  async health(): Promise<object> {
    const report = await this.dependencies.report();
    return this.dependencies.isHealthy(report) ? { status: 'ok' } : { status: 'degraded', ...report };
  }

  /**
   * Readiness: 503 until started and again once shutting down. A PostgreSQL
   * outage does not make it 503: every replica shares the one database, so
   * all would leave the Service at once, though live states, frozen results
   * and recently read catalog answers are served from memory (the rest 503).
   * An ingest process also names each lease it holds (`active`) or stands
   * by for (`standby`): a standby is ready, since it takes over on its own.
   */
  @Get('ready')
  async ready(): Promise<object> {
    if (!this.readiness.isReady) throw new ServiceUnavailableException('not ready');
    const ingest = this.leadership ? { ingest: this.leadership.roles() } : {};
    return { status: 'ready', ...(await this.dependencies.report()), ...ingest };
  }
}
