import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildDataSourceOptions, MIGRATIONS, openDataSource, RENAMED_MIGRATIONS } from '@app/database';
import { scratchDatabase } from '../support/scratch-database';
import { childEnv } from '../support/test-env';

const run = promisify(execFile);

describe('migrations', () => {
  const url = scratchDatabase('it_mig');

  it('leaves the schema alone when MIGRATIONS_RUN is off', async () => {
    const dataSource = await openDataSource(
      buildDataSourceOptions({ url, applicationName: 'test', migrationsRun: false }),
    );
    const [{ exists }] = await dataSource.query<Array<{ exists: boolean }>>(
      `SELECT to_regclass('auth.api_keys') IS NOT NULL AS exists`,
    );
    await dataSource.destroy();
    expect(exists).toBe(false);
  });

  it('applies each migration once when several processes start together', async () => {
    const starts = Array.from({ length: 4 }, () =>
      openDataSource(buildDataSourceOptions({ url, applicationName: 'test', migrationsRun: true })),
    );
    const dataSources = await Promise.all(starts);
    const rows = await dataSources[0].query<Array<{ name: string }>>(
      'SELECT name FROM migrations ORDER BY id',
    );
    await Promise.all(dataSources.map((dataSource) => dataSource.destroy()));
    expect(rows.map((row) => row.name)).toEqual(MIGRATIONS.map((migration) => migration.name));
  });

  it('`npm run migrate` reports nothing left to apply, on stdout as JSON', async () => {
    const { stdout } = await run('npm', ['run', 'migrate'], {
      cwd: join(__dirname, '..', '..'),
      env: childEnv({ DATABASE_URL: url }),
    });
    expect(JSON.parse(stdout)).toEqual({ applied: [] });
  });
});

describe('a database migrated before the migrations were renamed', () => {
  const url = scratchDatabase('it_mig_old');

  it('gets its recorded names rewritten and runs nothing twice', async () => {
    const first = await openDataSource(
      buildDataSourceOptions({ url, applicationName: 'test', migrationsRun: true }),
    );
    // As an earlier release left it: the old 14-digit names, timestamps as TypeORM parsed them.
    for (const { from, to } of RENAMED_MIGRATIONS) {
      await first.query('UPDATE migrations SET name = $1, timestamp = $2 WHERE name = $3', [
        from,
        Number(from.slice(-13)),
        to,
      ]);
    }
    await first.destroy();

    const again = await openDataSource(
      buildDataSourceOptions({ url, applicationName: 'test', migrationsRun: true }),
    );
    const rows = await again.query<Array<{ name: string; timestamp: string }>>(
      'SELECT name, timestamp FROM migrations ORDER BY id',
    );
    await again.destroy();
    expect(rows.map((row) => row.name)).toEqual(MIGRATIONS.map((migration) => migration.name));
    expect(rows.map((row) => Number(row.timestamp))).toEqual(
      MIGRATIONS.map((migration) => Number(migration.name.slice(-13))),
    );
  });
});
