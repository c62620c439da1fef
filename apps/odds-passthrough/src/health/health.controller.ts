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

  @Get('readyz')
  async readyz(): Promise<object> {
    if (!this.readiness.isReady) throw new ServiceUnavailableException('not ready');
    const report = await this.dependencies.report();
    if (report.database !== 'up') throw new ServiceUnavailableException('database unreachable');
    return { status: 'ready', ...report };
  }
}
