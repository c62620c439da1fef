import { Injectable } from '@nestjs/common';
import { TypeOrmHealthIndicator } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { NatsLink, type NatsState } from '@app/messaging';
import { pingDatabase } from './database-ping';

export interface DependencyReport {
  readonly database: 'up' | 'down';
  readonly nats: NatsState;
}

const DATABASE_PING_TIMEOUT_MS = 1000;

/** The state of PostgreSQL and NATS, for both apps' health endpoints. */
@Injectable()
export class DependencyHealth {
  constructor(
    private readonly database: TypeOrmHealthIndicator,
    private readonly nats: NatsLink,
    private readonly dataSource: DataSource,
  ) {}

  async report(): Promise<DependencyReport> {
    return { database: (await this.databaseUp()) ? 'up' : 'down', nats: this.nats.state };
  }

  isHealthy(report: DependencyReport): boolean {
    return report.database === 'up' && report.nats === 'connected';
  }

  /**
   * Whether PostgreSQL answers a ping within `timeoutMs`. The ingest lease asks twice a second, so
   * this pings the pool directly: terminus's indicator resolves its packages and the data source
   * through `require` and the module graph on every call (a twentieth of a quiet poller's CPU).
   */
  async databaseReachable(timeoutMs = DATABASE_PING_TIMEOUT_MS): Promise<boolean> {
    return pingDatabase(this.dataSource, timeoutMs);
  }

  private async databaseUp(timeoutMs = DATABASE_PING_TIMEOUT_MS): Promise<boolean> {
    const result = await this.database.pingCheck('database', { timeout: timeoutMs });
    return result.database?.status === 'up';
  }
}
