import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { MIGRATIONS } from './migrations';

export interface DatabaseSettings {
  readonly url: string;
  /** Shown in pg_stat_activity, so an operator can tell the processes apart. */
  readonly applicationName: string;
  readonly migrationsRun: boolean;
  readonly entities?: PostgresConnectionOptions['entities'];
}

/** Longest wait for a connection; past it a request fails over to its outage path. */
const CONNECT_TIMEOUT_MS = 3000;
/** Longest a query may take before the client gives up on it. */
const QUERY_TIMEOUT_MS = 5000;

/**
 * The one place TypeORM is configured: the apps (through DatabaseModule),
 * `npm run migrate` and the key CLI all build their options here.
 * `migrationsRun` is honoured by `openDataSource`, under an advisory lock,
 * never by TypeORM's own unlocked runner.
 */
export function buildDataSourceOptions(settings: DatabaseSettings): PostgresConnectionOptions {
  return {
    type: 'postgres',
    url: settings.url,
    applicationName: settings.applicationName,
    entities: settings.entities ?? [],
    migrations: MIGRATIONS,
    migrationsRun: settings.migrationsRun,
    migrationsTransactionMode: 'each',
    synchronize: false,
    connectTimeoutMS: CONNECT_TIMEOUT_MS,
    extra: { query_timeout: QUERY_TIMEOUT_MS, max: 10 },
  };
}
