/** Where the integration tests find the machine's real services. */
export const PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

export function databaseUrl(database: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

/** The database created for this run by global-setup. */
export function runDatabaseUrl(): string {
  const url = process.env.TEST_RUN_DATABASE_URL;
  if (!url) throw new Error('TEST_RUN_DATABASE_URL is not set: run the integration tests through jest');
  return url;
}

/** The NATS subject prefix of this run, so runs sharing the server stay apart. */
export function runSubjectPrefix(): string {
  return process.env.TEST_RUN_SUBJECT_PREFIX ?? '';
}

/** Limits far above what any suite uses: the default ones are tested where they are the subject. */
export const UNLIMITED: Readonly<Record<string, string>> = {
  RATE_LIMIT_RPS: '1000000',
  RATE_LIMIT_BURST: '1000000',
  STREAM_MAX_CONNECTIONS_PER_KEY: '1000000',
  STREAM_MAX_SUBSCRIPTIONS: '1000000',
};

/** What every service process of this run needs to find PostgreSQL and NATS. */
export function runServiceEnv(): Record<string, string> {
  return {
    DATABASE_URL: runDatabaseUrl(),
    NATS_URL,
    NATS_SUBJECT_PREFIX: runSubjectPrefix(),
    // Request logs would bury test output; tests that read logs ask for more.
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'fatal',
    // Suites send many requests and open many sockets with one key, and in-process apps run on a
    // clock that only moves when told to; the limits suites (test/limits) set their own.
    ...UNLIMITED,
  };
}

/**
 * The environment for an `npm run …` child: this process's, without the npm
 * settings an outer `npm test --loglevel=…` passes down, so the child obeys
 * the project's .npmrc as an operator's shell would.
 */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const name of Object.keys(env)) {
    if (name.toLowerCase() === 'npm_config_loglevel') delete env[name];
  }
  return env;
}
