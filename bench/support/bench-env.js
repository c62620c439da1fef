// What every bench script that runs a service shares: the PostgreSQL admin
// connection for throwaway databases, and waiting for conditions.
'use strict';
const { execSync } = require('node:child_process');
const fs = require('node:fs');
const { Client } = require('pg');

const adminUrl = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The URL of database `name` on the admin server. */
function databaseUrl(name) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one statement as the admin (CREATE/DROP DATABASE, catalog reads); resolves with its rows. */
async function admin(sql) {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check, what, timeoutMs = 120_000) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/**
 * Calls `act(n)` (n = 0, 1, 2...) every `intervalMs` on average for `seconds`, catching up after
 * a late timer rather than drifting; resolves with the number of calls.
 */
async function paced(seconds, intervalMs, act) {
  const started = performance.now();
  let done = 0;
  while (performance.now() - started < seconds * 1000) {
    const due = Math.floor((performance.now() - started) / intervalMs);
    while (done < due) act(done++);
    await sleep(Math.max(1, Math.min(intervalMs, 20)));
  }
  return done;
}

const CLOCK_TICKS_PER_SECOND = Number(execSync('getconf CLK_TCK').toString().trim()) || 100;

/**
 * CPU time (user + system, ms) a process has used so far, from /proc: the cost measure of the
 * stream scripts. With `reapedChildren`, that of its children it has waited for is added.
 */
function cpuMs(pid, { reapedChildren = false } = {}) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which sits in parentheses and may contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks =
    Number(fields[11]) + Number(fields[12]) + (reapedChildren ? Number(fields[13]) + Number(fields[14]) : 0);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** Resident memory of a process now, KiB, from /proc. */
function rssKb(pid) {
  return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
}

const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

/** A TCP port free on the loopback interface at the moment of asking. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = require('node:net').createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The `p`th percentile of ascending `sorted`, to a tenth; null for no values. */
function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 10) / 10;
}

module.exports = {
  adminUrl,
  databaseUrl,
  admin,
  sleep,
  until,
  paced,
  cpuMs,
  rssKb,
  natsUrl,
  freePort,
  percentile,
  CLOCK_TICKS_PER_SECOND,
};
