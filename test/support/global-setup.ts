import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import { buildDataSourceOptions } from '../../libs/database/src/data-source-options';
import { openDataSource } from '../../libs/database/src/open-data-source';
import { databaseUrl, PG_ADMIN_URL } from './test-env';

/**
 * One database per test run, migrated once, so runs never collide; the key
 * CLI is built once here because the tests run it as operators do.
 */
export default async function globalSetup(): Promise<void> {
  const name = `it_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(name);
  process.env.TEST_RUN_DATABASE_NAME = name;
  process.env.TEST_RUN_DATABASE_URL = url;
  // The run's NATS subjects live under its own prefix: concurrent runs on one server never cross.
  process.env.TEST_RUN_SUBJECT_PREFIX = name;

  const dataSource = await openDataSource(
    buildDataSourceOptions({ url, applicationName: 'test-setup', migrationsRun: true }),
  );
  await dataSource.destroy();

  const root = join(__dirname, '..', '..');
  // Some suites run the services as operators do (node dist/...): build what is stale, once per run.
  execFileSync(process.execPath, [join(root, 'scripts', 'ensure-build.js')], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}
