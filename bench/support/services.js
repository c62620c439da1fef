// The processes a workload measures: the product from its built bundle (dist/, as production runs
// it; `node scripts/ensure-build.js` builds it when stale) and the bare baselines from their
// scripts, each on the server core; and the throwaway database a workload runs against.
'use strict';
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const readline = require('node:readline');
const { spawnOn, SERVER_CORE } = require('./cores');
const { admin, databaseUrl, natsUrl, until } = require('./bench-env');
const { UNLIMITED_STREAMS } = require('./bench-keys');

const root = path.join(__dirname, '..', '..');

/** Builds the bundles of `apps` when a source is newer than them (build output on stderr). */
function ensureBuilt(apps) {
  execFileSync(process.execPath, [path.join(root, 'scripts', 'ensure-build.js'), ...apps], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/** Node options from a space-separated environment variable. */
function nodeArgsOf(variable) {
  return process.env[variable]?.split(' ').filter(Boolean) ?? [];
}

/**
 * Runs `node <script>` on `core` with `env` added, its logs at warn level on this stderr.
 * `BENCH_SERVICE_NODE_ARGS` adds Node options to every server, product and baseline (e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof`); `extraArgs` come after them.
 */
function spawnNode(script, env, core = SERVER_CORE, cwd = root, stdio = ['ignore', 2, 2], extraArgs = []) {
  const nodeArgs = [...nodeArgsOf('BENCH_SERVICE_NODE_ARGS'), ...extraArgs];
  return spawnOn(core, process.execPath, [...nodeArgs, script], {
    cwd,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio,
  });
}

/**
 * An ingest that goes standby while it is measured stops publishing for a while, which makes the
 * figures of that window wrong either way; a stopping process going standby is no such case.
 */
const LEASE_LOST = /Ingest (\S+): standby \((?!this process is stopping)([^)]*)\)/;
let leaseLosses = [];

/** The lease losses logged by products since the last call (`{ lease, reason }` each). */
function takeLeaseLosses() {
  const taken = leaseLosses;
  leaseLosses = [];
  return taken;
}

/** Passes a product's logs on to this stderr, noting every lease loss among them. */
function watchLogs(child) {
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      process.stderr.write(`${line}\n`);
      const lost = LEASE_LOST.exec(line);
      if (lost) leaseLosses.push({ lease: lost[1], reason: lost[2] });
    });
  }
  return child;
}

/**
 * Another checkout whose build stands in for the product (`BENCH_PRODUCT_ROOT`, built there
 * with `npm run build`), to compare commits with the same workloads and baselines. Its
 * databases are migrated by this checkout, so it must not run migrations of its own.
 */
const productRoot = process.env.BENCH_PRODUCT_ROOT ? path.resolve(process.env.BENCH_PRODUCT_ROOT) : root;
const PRODUCT_ENV = productRoot === root ? {} : { MIGRATIONS_RUN: 'false' };

/**
 * Starts a service of apps/ from dist with its database, NATS prefix and `env`.
 * `BENCH_PRODUCT_NODE_ARGS` adds Node options to the product's processes only, so a profile
 * or a V8 setting tried on the product leaves its baseline as it runs.
 */
function spawnProduct(app, database, env, core = SERVER_CORE) {
  const child = spawnNode(
    path.join(productRoot, 'dist', 'apps', app, 'main.js'),
    {
      DATABASE_URL: database.url,
      NATS_URL: natsUrl,
      NATS_SUBJECT_PREFIX: database.name,
      ...UNLIMITED_STREAMS,
      ...PRODUCT_ENV,
      ...env,
    },
    core,
    productRoot,
    ['ignore', 'pipe', 'pipe'],
    nodeArgsOf('BENCH_PRODUCT_NODE_ARGS'),
  );
  return watchLogs(child);
}

/** Starts a bare baseline server of bench/workloads. */
function spawnBaseline(script, env) {
  return spawnNode(path.join(root, 'bench', 'workloads', script), env);
}

/** Stops a process started here (SIGTERM, SIGKILL after 10 s) and waits for it to exit. */
async function stopProcess(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Resolves once `url` answers at all (any status), i.e. the server listens. */
function listening(url, what) {
  return until(
    () =>
      fetch(url).then(
        () => true,
        () => false,
      ),
    what,
  );
}

/**
 * Runs `fn({ name, url, dataSource })` with a new migrated database (the data source is the
 * runner's own connection), and drops the database afterwards, with the JetStream streams and
 * KV buckets the services made under the subject prefix of the same name. Those of runs killed
 * before their end go first, once they are old enough to belong to no live run.
 */
async function withDatabase(prefix, fn) {
  require('./ts-sources');
  const { buildDataSourceOptions, openDataSource } = require('../../libs/database/src');
  const name = `bench_${prefix}_${Date.now().toString(36)}`;
  await dropAbandoned();
  await admin(`CREATE DATABASE ${name}`);
  const url = databaseUrl(name);
  let dataSource;
  try {
    dataSource = await openDataSource(
      buildDataSourceOptions({ url, applicationName: 'bench', migrationsRun: true }),
    );
    return await fn({ name, url, dataSource });
  } finally {
    await dataSource?.destroy();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await dropStreams(name);
  }
}

/** Deletes the streams named after `prefix`, KV buckets' (`KV_<bucket>`) included. */
function dropStreams(prefix) {
  return dropStreamsWhere((owner) => owner.startsWith(prefix));
}

/** Deletes every stream whose name, without a KV bucket's `KV_`, `owned` accepts. */
async function dropStreamsWhere(owned) {
  const { connect } = require('nats');
  const connection = await connect({ servers: natsUrl });
  try {
    const manager = await connection.jetstreamManager();
    for await (const stream of manager.streams.list()) {
      const streamName = stream.config.name;
      const owner = streamName.startsWith(KV_STREAM) ? streamName.slice(KV_STREAM.length) : streamName;
      if (owned(owner)) await manager.streams.delete(streamName);
    }
  } finally {
    await connection.close();
  }
}

/** How JetStream names the stream behind a KV bucket. */
const KV_STREAM = 'KV_';
/** A workload's database and streams are named `bench_<workload>_<start in base 36>`. */
const BENCH_NAME = /^bench_[a-z]+_([0-9a-z]{8})(?:_|$)/;
/** Older than this, a workload's leftovers belong to a run that was killed, not to a live one. */
const ABANDONED_AFTER_MS = 6 * 3600_000;

function isAbandoned(name) {
  const started = BENCH_NAME.exec(name)?.[1];
  return started !== undefined && Date.now() - parseInt(started, 36) > ABANDONED_AFTER_MS;
}

/** Drops the databases, streams and buckets that killed runs left behind. */
async function dropAbandoned() {
  const databases = await admin(`SELECT datname FROM pg_database WHERE datname LIKE 'bench\\_%'`);
  for (const { datname } of databases) {
    if (isAbandoned(datname)) await admin(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  }
  await dropStreamsWhere(isAbandoned);
}

module.exports = {
  ensureBuilt,
  spawnProduct,
  spawnBaseline,
  stopProcess,
  listening,
  withDatabase,
  takeLeaseLosses,
};
