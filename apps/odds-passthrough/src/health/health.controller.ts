import { Controller, Get, Header, Optional, ServiceUnavailableException } from '@nestjs/common';
import { Public } from '@app/auth';
import { DependencyHealth, Readiness } from '@app/health';
import { IngestLeadership } from '@app/leadership';

@Public()
@Controller()
export class HealthController {
  constructor(
    private readonly dependencies: DependencyHealth,
    private readonly readiness: Readiness,
    @Optional() private readonly leadership?: IngestLeadership,
  ) {}

  /** Liveness of the process only: the data feed's health travels on the stream heartbeat. */
  @Get('healthz')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  healthz(): string {
    return 'ok';
  }

  /**
   * 503 until started and again once shutting down. A PostgreSQL outage does
   * not make it 503: every replica shares the one database, so all would
   * leave the Service at once, though the book is served from memory.
   * An ingest process also names each lease it holds (`active`) or stands
   * by for (`standby`): a standby is ready, since it takes over on its own.
   */
  @Get('readyz')
  async readyz(): Promise<object> {
    if (!this.readiness.isReady) throw new ServiceUnavailableException('not ready');
    const ingest = this.leadership ? { ingest: this.leadership.roles() } : {};
    return { status: 'ready', ...(await this.dependencies.report()), ...ingest };
  }
}
