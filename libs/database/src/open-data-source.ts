import { Logger } from '@nestjs/common';
import { DataSource, type DataSourceOptions, type QueryRunner } from 'typeorm';

/**
 * Arbitrary but fixed: every process of the platform takes this advisory lock
 * before migrating, so replicas starting together migrate one at a time.
 */
export const MIGRATION_LOCK_ID = 724_310_001;

const logger = new Logger('Migrations');

/**
 * Migrations whose class names once carried 14-digit timestamps, which
 * TypeORM (ordering by the last 13 characters) would have sorted after any
 * migration generated later. Databases migrated before the rename record the
 * old names; they are rewritten before TypeORM compares, so nothing runs twice.
 */
export const RENAMED_MIGRATIONS: readonly { readonly from: string; readonly to: string }[] = [
  { from: 'FixturesCatalog17638000000000', to: 'FixturesCatalog1763800000000' },
  { from: 'OddsBook17639000000000', to: 'OddsBook1763900000000' },
];

async function rewriteRenamedMigrations(dataSource: DataSource, runner: QueryRunner): Promise<void> {
  const table = dataSource.options.migrationsTableName ?? 'migrations';
  const [{ exists }] = (await runner.query(`SELECT to_regclass($1) IS NOT NULL AS exists`, [table])) as {
    exists: boolean;
  }[];
  if (!exists) return;
  for (const { from, to } of RENAMED_MIGRATIONS) {
    await runner.query(`UPDATE "${table}" SET name = $1, timestamp = $2 WHERE name = $3`, [
      to,
      Number(to.slice(-13)),
      from,
    ]);
  }
}

/** Applies pending migrations while holding the platform's advisory lock. */
export async function runMigrationsLocked(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      await rewriteRenamedMigrations(dataSource, runner);
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
