import { Injectable } from '@nestjs/common';
import { TypeOrmHealthIndicator } from '@nestjs/terminus';
import { NatsLink, type NatsState } from '@app/messaging';

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
  ) {}

  async report(): Promise<DependencyReport> {
    return { database: (await this.databaseUp()) ? 'up' : 'down', nats: this.nats.state };
  }

  isHealthy(report: DependencyReport): boolean {
    return report.database === 'up' && report.nats === 'connected';
  }

  /** Whether PostgreSQL answers a ping within `timeoutMs`. */
  async databaseReachable(timeoutMs = DATABASE_PING_TIMEOUT_MS): Promise<boolean> {
    try {
      return await this.databaseUp(timeoutMs);
    } catch {
      return false;
    }
  }

  private async databaseUp(timeoutMs = DATABASE_PING_TIMEOUT_MS): Promise<boolean> {
    const result = await this.database.pingCheck('database', { timeout: timeoutMs });
    return result.database?.status === 'up';
  }
}
