import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { buildDataSourceOptions } from '../../../libs/database/src/data-source-options';
import { openDataSource } from '../../../libs/database/src/open-data-source';
import { runKeys } from '../../support/keys-cli';
import { databaseUrl, PG_ADMIN_URL, runSubjectPrefix } from '../../support/test-env';

interface KeyOptions {
  readonly sports?: string;
  readonly scopes: string;
  readonly grants?: string[];
  /** The key's own REST rate, `RPS[/BURST]`. */
  readonly rate?: string;
}

export interface IsolatedStack {
  /** DATABASE_URL and NATS_SUBJECT_PREFIX of this suite only. */
  readonly env: Record<string, string>;
  issueKey(options: KeyOptions): Promise<string>;
  issueKeyWithId(options: KeyOptions): Promise<{ id: string; key: string }>;
  disableKey(id: string): Promise<void>;
  drop(): Promise<void>;
}

/**
 * A database and a NATS subject prefix of the suite's own. The stream suites
 * run ingest processes whose full loads would withdraw what other suites of
 * the run store, so they share neither state nor subjects with them.
 */
export async function isolatedStack(label: string): Promise<IsolatedStack> {
  const name = `${process.env.TEST_RUN_DATABASE_NAME ?? 'it'}_${label}_${randomBytes(2).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = databaseUrl(name);
  const dataSource = await openDataSource(
    buildDataSourceOptions({ url, applicationName: 'test-setup', migrationsRun: true }),
  );
  await dataSource.destroy();
  const env = { DATABASE_URL: url, NATS_SUBJECT_PREFIX: `${runSubjectPrefix() || 'it'}_${label}` };

  const issueKeyWithId = async ({ sports = '', scopes, grants = [], rate }: KeyOptions) => {
    const account = await runKeys(['account:create', '--name', label, '--sports', sports], env);
    if (account.code !== 0) throw new Error(`account:create failed: ${account.stdout}`);
    const args = ['key:issue', '--account', String(account.json.account), '--scopes', scopes];
    for (const grant of grants) args.push('--grant', grant);
    if (rate !== undefined) args.push('--rate', rate);
    const issued = await runKeys(args, env);
    if (issued.code !== 0) throw new Error(`key:issue failed: ${issued.stdout}`);
    return { id: String(issued.json.id), key: String(issued.json.key) };
  };

  return {
    env,
    issueKeyWithId,
    issueKey: async (options) => (await issueKeyWithId(options)).key,
    async disableKey(id) {
      const disabled = await runKeys(['key:disable', '--id', id], env);
      if (disabled.code !== 0) throw new Error(`key:disable failed: ${disabled.stdout}`);
    },
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
