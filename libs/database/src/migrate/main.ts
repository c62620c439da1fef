import 'reflect-metadata';
import { DatabaseEnv, useStderrLogging, validateEnv } from '@app/config';
import { buildDataSourceOptions } from '../data-source-options';
import { openDataSource, runMigrationsLocked } from '../open-data-source';

/** `npm run migrate`: applies pending migrations under the advisory lock and exits. */
async function main(): Promise<void> {
  useStderrLogging();
  const env = validateEnv(DatabaseEnv, process.env);
  const dataSource = await openDataSource(
    buildDataSourceOptions({ url: env.DATABASE_URL, applicationName: 'migrate', migrationsRun: false }),
  );
  try {
    const applied = await runMigrationsLocked(dataSource);
    process.stdout.write(`${JSON.stringify({ applied })}\n`);
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stdout.write(`${JSON.stringify({ error: message })}\n`);
  process.exitCode = 1;
});
