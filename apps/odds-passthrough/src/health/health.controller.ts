import { Controller, Get, Header, ServiceUnavailableException } from '@nestjs/common';
import { Public } from '@app/auth';
import { DependencyHealth, Readiness } from '@app/health';

@Public()
@Controller()
export class HealthController {
  constructor(
    private readonly dependencies: DependencyHealth,
    private readonly readiness: Readiness,
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
   */
  @Get('readyz')
  async readyz(): Promise<object> {
    if (!this.readiness.isReady) throw new ServiceUnavailableException('not ready');
    return { status: 'ready', ...(await this.dependencies.report()) };
  }
}
