#!/usr/bin/env node
// `npm start`: the whole platform on one machine for a first look. Builds when
// needed, finds or starts PostgreSQL and NATS, migrates, runs the simulator and
// both services, seeds a demo account and prints keys and commands to try.
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { Client } = require('pg');
const { startPostgres, startNats, freePort, canConnect } = require('./infrastructure');

const root = join(__dirname, '..', '..');
const dataDir = process.env.DEMO_DATA_DIR ?? join(root, '.data');
const logDir = join(dataDir, 'logs');
const stateFile = join(dataDir, 'demo.json');
const FULL_SCOPES = 'fixtures,live_scores,live_scores_statistics,final_scores,odds';
const LIMITED_SCOPES = 'fixtures,live_scores,live_scores_statistics,final_scores';
const BOOK_PATH = '/book';

const children = [];
const cleanups = [];
let stopping = false;

function log(message) {
  process.stderr.write(`[demo] ${message}\n`);
}

async function portOrFree(preferred) {
  if (!(await canConnect('127.0.0.1', preferred, 300))) return preferred;
  const port = await freePort();
  log(`port ${preferred} is taken; using ${port}`);
  return port;
}

function build() {
  const result = spawnSync(
    process.execPath,
    [
      join(root, 'scripts/ensure-build.js'),
      'fixtures-live',
      'odds-passthrough',
      'feed-sim',
      'keys',
      'migrate',
    ],
    { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (result.status !== 0) throw new Error('the build failed');
  const board = spawnSync(process.execPath, [join(root, 'scripts/build-board.js')], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (board.status !== 0) throw new Error('the board build failed');
}

function runOnce(name, script, args, env) {
  const result = spawnSync(process.execPath, [join(root, script), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(
      `${name} failed: ${(result.stdout + result.stderr).trim().split('\n').slice(-5).join('\n')}`,
    );
  }
  return result.stdout;
}

function keys(env, ...args) {
  return JSON.parse(runOnce('keys', 'dist/libs/auth/keys/main.js', args, env));
}

function startChild(name, script, env) {
  mkdirSync(logDir, { recursive: true });
  const output = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' });
  const child = spawn(process.execPath, [join(root, script)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(output);
  child.stderr.pipe(output);
  let tail = '';
  const keepTail = (chunk) => (tail = (tail + chunk.toString()).slice(-4000));
  child.stdout.on('data', keepTail);
  child.stderr.on('data', keepTail);
  child.once('exit', (code, signal) => {
    if (stopping) return;
    log(`${name} stopped unexpectedly (${signal ?? `exit ${code}`}); see ${join(logDir, `${name}.log`)}`);
    // The data folder may be gone by the time someone looks: the last lines say why it stopped.
    for (const line of tail.split('\n').slice(-12)) if (line) log(`  ${name}: ${line}`);
    void shutdown(1);
  });
  children.push({ name, child });
  return child;
}

async function waitForHttp(name, url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${name} did not become ready at ${url} within ${timeoutMs / 1000} s`);
}

/** Waits until fixtures-live has read every sport the simulator lists; returns their ids. */
async function fixturesSportIds(databaseUrl, simUrl, timeoutMs) {
  const response = await fetch(`${simUrl}/sports`);
  if (!response.ok) throw new Error(`the simulator answered ${response.status} to /sports`);
  const wanted = (await response.json()).map((sport) => sport.key);
  const deadline = Date.now() + timeoutMs;
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    while (Date.now() < deadline) {
      const { rows } = await client.query(
        'SELECT id FROM fixtures.sports WHERE provider_key = ANY($1) ORDER BY id',
        [wanted],
      );
      if (rows.length === wanted.length) return rows.map((row) => Number(row.id));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await client.end();
  }
  throw new Error('fixtures-live has not read the sports of the simulator');
}

async function bookSportIds(bookUrl) {
  const response = await fetch(`${bookUrl}/sports`);
  if (!response.ok) throw new Error(`the simulator's sportsbook answered ${response.status} to /sports`);
  const sports = await response.json();
  return sports.map((sport) => sport.id);
}

function readState() {
  if (!existsSync(stateFile)) return {};
  try {
    return JSON.parse(readFileSync(stateFile, 'utf8'));
  } catch {
    return {};
  }
}

/** Brings a remembered account's sports up to date, or makes it when the database has no such account. */
function ensureAccount(env, accountId, name, sports) {
  if (accountId) {
    try {
      keys(env, 'account:sports', '--account', String(accountId), '--sports', sports);
      return accountId;
    } catch {
      // a new database: make the account again
    }
  }
  return keys(env, 'account:create', '--name', name, '--sports', sports).account;
}

/**
 * Two accounts, made once and kept in the database: full access, and soccer
 * only without odds. Keys are shown once, so each start issues fresh ones and
 * disables those of the previous start.
 */
async function seed(env, databaseUrl, simUrl, bookUrl) {
  const fixturesSports = await fixturesSportIds(databaseUrl, simUrl, 30000);
  const bookSports = await bookSportIds(bookUrl);
  const state = readState();
  state.fullAccount = ensureAccount(env, state.fullAccount, 'Demo full access', fixturesSports.join(','));
  state.limitedAccount = ensureAccount(env, state.limitedAccount, 'Demo soccer only', 'soccer');
  for (const id of state.keyIds ?? []) {
    try {
      keys(env, 'key:disable', '--id', String(id));
    } catch {
      // already gone from an earlier database
    }
  }
  const full = keys(
    env,
    'key:issue',
    '--account',
    String(state.fullAccount),
    '--scopes',
    FULL_SCOPES,
    '--grant',
    `book=${bookSports.join(',')}`,
  );
  const limited = keys(
    env,
    'key:issue',
    '--account',
    String(state.limitedAccount),
    '--scopes',
    LIMITED_SCOPES,
  );
  state.keyIds = [full.id, limited.id];
  writeFileSync(stateFile, `${JSON.stringify(state, null, 2)}\n`);
  return { full: full.key, limited: limited.key };
}

function banner({ fixtures, odds, sim, keys: demoKeys, postgres, nats }) {
  const lines = [
    '',
    'The demo is running.',
    '',
    `  fixtures-live     ${fixtures}/v1   (OpenAPI: ${fixtures}/v1/docs)`,
    `  live board        ${fixtures}/board/?odds=${encodeURIComponent(odds)}`,
    `  odds-passthrough  ${odds}/v1/book/   (OpenAPI: ${odds}/v1/book/docs)`,
    `  simulator         ${sim}`,
    `  PostgreSQL        ${postgres}`,
    `  NATS              ${nats}`,
    `  logs              ${logDir}`,
    '',
    `  full-access key:  ${demoKeys.full}`,
    `  limited key:      ${demoKeys.limited}   (soccer only, no odds)`,
    '',
    'Try:',
    `  curl -H 'X-API-Key: ${demoKeys.full}' ${fixtures}/v1/sports`,
    `  curl -H 'X-API-Key: ${demoKeys.full}' '${fixtures}/v1/matches/live?sport=1'`,
    `  curl -H 'X-API-Key: ${demoKeys.full}' ${odds}/v1/book/sports`,
    `  curl -H 'X-API-Key: ${demoKeys.full}' ${odds}/v1/book/matches`,
    `  curl -H 'X-API-Key: ${demoKeys.limited}' ${odds}/v1/book/sports    # 403: no odds scope`,
    `  node scripts/ws-tail.js '${fixtures.replace('http', 'ws')}/v1/stream?key=${demoKeys.full}' '{"action":"subscribe","match_id":1}'`,
    `  node scripts/ws-tail.js '${odds.replace('http', 'ws')}/v1/book/data?key=${demoKeys.full}' '{"action":"subscribe_all"}'`,
    '',
    'Ctrl-C stops everything; the next npm start reuses the data.',
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  log('stopping...');
  await Promise.all(
    children.map(
      ({ child }) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const force = setTimeout(() => child.kill('SIGKILL'), 12000);
          child.once('exit', () => {
            clearTimeout(force);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (error) {
      log(`cleanup failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  process.exit(code);
}

async function main() {
  process.once('SIGINT', () => void shutdown(0));
  process.once('SIGTERM', () => void shutdown(0));
  build();
  mkdirSync(logDir, { recursive: true });
  const postgresLog = createWriteStream(join(logDir, 'postgres.log'), { flags: 'a' });
  const postgres = await startPostgres(dataDir, (line) => postgresLog.write(`${line}\n`));
  cleanups.push(postgres.stop);
  const nats = await startNats(dataDir, log);
  log(`PostgreSQL: ${postgres.description}; NATS: ${nats.description}`);
  cleanups.push(nats.stop);

  const simPort = await portOrFree(Number(process.env.SIM_PORT ?? 4000));
  const fixturesPort = await portOrFree(Number(process.env.DEMO_FIXTURES_PORT ?? 3000));
  const oddsPort = await portOrFree(Number(process.env.DEMO_ODDS_PORT ?? 3001));
  const sim = `http://127.0.0.1:${simPort}`;
  const bookUrl = `${sim}${BOOK_PATH}`;
  const shared = { DATABASE_URL: postgres.url, NATS_URL: nats.url, ROLE: 'all' };

  runOnce('migrate', 'dist/libs/database/migrate/main.js', [], shared);
  startChild('feed-sim', 'dist/apps/feed-sim/main.js', { SIM_PORT: String(simPort) });
  await waitForHttp('feed-sim', `${sim}/healthz`, 30000);
  startChild('fixtures-live', 'dist/apps/fixtures-live/main.js', {
    ...shared,
    PORT: String(fixturesPort),
    FIXTURES_UPSTREAM_URL: sim,
    FIXTURES_CATALOG_POLL_MS: process.env.FIXTURES_CATALOG_POLL_MS ?? '10000',
    BOARD_DIR: join(root, 'board'),
  });
  startChild('odds-passthrough', 'dist/apps/odds-passthrough/main.js', {
    ...shared,
    PORT: String(oddsPort),
    BOOK_UPSTREAM_URL: bookUrl,
  });
  const fixtures = `http://127.0.0.1:${fixturesPort}`;
  const odds = `http://127.0.0.1:${oddsPort}`;
  await waitForHttp('fixtures-live', `${fixtures}/v1/health/ready`, 60000);
  await waitForHttp('odds-passthrough', `${odds}/readyz`, 60000);
  const demoKeys = await seed(shared, postgres.url, sim, bookUrl);
  banner({ fixtures, odds, sim, keys: demoKeys, postgres: postgres.description, nats: nats.description });
}

main().catch((error) => {
  log(`failed: ${error instanceof Error ? error.message : String(error)}`);
  void shutdown(1);
});
