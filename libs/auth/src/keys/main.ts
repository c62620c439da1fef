import 'reflect-metadata';
import { MessagingEnv, useStderrLogging, validateEnv } from '@app/config';
import { buildDataSourceOptions, openDataSource } from '@app/database';
import { NatsEventClient, NatsLink, parseNatsServers, Subjects } from '@app/messaging';
import { AUTH_ENTITIES } from '../entities';
import { CliError, parseKeysCommand } from './cli-args';
import { KeyAdmin } from './key-admin';
import { executeKeysCommand } from './keys-command';

/** How long the CLI waits for NATS before leaving propagation to the cache TTL. */
const NATS_WAIT_MS = 3000;

function print(value: object): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

async function main(argv: readonly string[]): Promise<number> {
  useStderrLogging();
  const command = parseKeysCommand(argv);
  const env = validateEnv(MessagingEnv, process.env);
  const dataSource = await openDataSource(
    buildDataSourceOptions({
      url: env.DATABASE_URL,
      applicationName: 'keys-cli',
      migrationsRun: env.MIGRATIONS_RUN,
      entities: AUTH_ENTITIES,
    }),
  ).catch((error: unknown) => {
    throw new CliError(`database unavailable: ${error instanceof Error ? error.message : String(error)}`);
  });
  const nats = new NatsLink({
    servers: parseNatsServers(env.NATS_URL),
    name: 'keys-cli',
    subjectPrefix: env.NATS_SUBJECT_PREFIX,
  });
  try {
    const result = await executeKeysCommand(command, {
      admin: new KeyAdmin(dataSource),
      now: () => new Date(),
      announce: async (event) => {
        if (await nats.waitUntilConnected(NATS_WAIT_MS)) {
          await new NatsEventClient(nats).emitEvent(Subjects.authKeysChanged, event);
        } else {
          process.stderr.write(
            'NATS unreachable: running services apply this change when their key cache expires (AUTH_CACHE_TTL_MS)\n',
          );
        }
      },
    });
    print(result);
    return 0;
  } finally {
    await nats.close();
    await dataSource.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    print({ error: error instanceof Error ? error.message : String(error) });
    process.exit(error instanceof CliError ? 2 : 1);
  },
);
