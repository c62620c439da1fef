import { connect } from 'nats';
import { Client } from 'pg';
import { NATS_URL, PG_ADMIN_URL } from './test-env';

/** Runs are named `it_<start time in base 36>_<hex>`; their leftovers past this age belong to no live run. */
const ABANDONED_AFTER_MS = 6 * 3600_000;
/** How JetStream names the stream behind a KV bucket. */
const KV_STREAM = 'KV_';

export default async function globalTeardown(): Promise<void> {
  const name = process.env.TEST_RUN_DATABASE_NAME;
  if (!name) return;
  const admin = new Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
  await dropChangeLogs(name);
}

/**
 * The services create their JetStream change logs, and their lease buckets
 * (KV buckets, streams named `KV_<bucket>`), named after the subject prefix,
 * which starts with the run's name; this run's go, and those of runs that
 * were killed before their own teardown.
 */
async function dropChangeLogs(run: string): Promise<void> {
  const connection = await connect({ servers: NATS_URL });
  try {
    const manager = await connection.jetstreamManager();
    for await (const stream of manager.streams.list()) {
      const streamName = stream.config.name;
      const owner = streamName.startsWith(KV_STREAM) ? streamName.slice(KV_STREAM.length) : streamName;
      if (owner.startsWith(run) || isAbandoned(owner)) await manager.streams.delete(streamName);
    }
  } finally {
    await connection.close();
  }
}

function isAbandoned(streamName: string): boolean {
  const started = /^it_([0-9a-z]+)_[0-9a-f]{6}/.exec(streamName)?.[1];
  return started !== undefined && Date.now() - parseInt(started, 36) > ABANDONED_AFTER_MS;
}
