import { Logger } from '@nestjs/common';
import { DataSource, type DataSourceOptions } from 'typeorm';

/**
 * Arbitrary but fixed: every process of the platform takes this advisory lock
 * before migrating, so replicas starting together migrate one at a time.
 */
export const MIGRATION_LOCK_ID = 724_310_001;

const logger = new Logger('Migrations');

/** Applies pending migrations while holding the platform's advisory lock. */
export async function runMigrationsLocked(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      const names = applied.map((migration) => migration.name);
      if (names.length > 0) logger.log(`Applied ${names.join(', ')}`);
      return names;
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    await runner.release();
  }
}

/** Opens a DataSource and, when its options ask for it, migrates under the lock. */
export async function openDataSource(options: DataSourceOptions): Promise<DataSource> {
  const dataSource = new DataSource({ ...options, migrationsRun: false });
  await dataSource.initialize();
  if (options.migrationsRun) {
    try {
      await runMigrationsLocked(dataSource);
    } catch (error) {
      await dataSource.destroy();
      throw error;
    }
  }
  return dataSource;
}
