// The odds stream under load, two phases against one odds-passthrough process (ROLE=all, the
// ingest polling a fake sportsbook every BOOK_POLL_MS, PostgreSQL, NATS, the stream), with 1,000
// clients that each sent `subscribe_all` (mode `all`, every client receives every change) or
// each subscribed to one match, 10 per match (mode `match`):
//   1. latency: one price change every 100 ms; the time from the change at the fake book until
//      the update reaches each client. Budget: p99 within BOOK_POLL_MS + 50 ms.
//   2. throughput: 2,000 selection changes a second (1,000 two-way markets) for `seconds`;
//      the selections a client receives per second, sockets closed, and the server's memory
//      (RSS) sampled every second. Budget: keeps up, memory flat.
// Run from the repository root:
//
//   node bench/odds-stream.js [seconds=20] [clients=1000] [pollMs=1000] [mode=all|match]
//
// The server runs as its own process from the TypeScript sources; the fake book and the
// clients share this process. It creates a throwaway database on BENCH_PG_ADMIN_URL (default
// postgres://postgres@127.0.0.1:5432/postgres), uses NATS_URL (default nats://127.0.0.1:4222)
// and drops the database at the end.
'use strict';

const fs = require('node:fs');
const { spawnService, stopService } = require('./support/ts-sources');

const { WebSocket: WsClient } = require('ws');
const { FakeSportsbook } = require('../test/support/fake-sportsbook');
const { seedWideBook, WIDE_SPORT, wideMatchId, wideTotal } = require('../test/odds-passthrough/wide-book');
const { databaseUrl, admin, sleep, until, cpuMs, freePort, percentile } = require('./support/bench-env');
const { issueBenchKey } = require('./support/bench-keys');

const seconds = Number(process.argv[2] ?? 20);
const clientCount = Number(process.argv[3] ?? 1000);
const pollMs = Number(process.argv[4] ?? 1000);
const mode = process.argv[5] ?? 'all';
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const SPORT = WIDE_SPORT;
const MATCHES = 100;
const MARKETS_PER_MATCH = 10;
const SELECTION_CHANGES_PER_SECOND = 2000;
/** Clients that parse every frame to count selections; the others count frames only. */
const SAMPLED = 20;

function rssMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

const matchIdOf = wideMatchId;
const total = wideTotal;
const seed = (book) => seedWideBook(book, MATCHES, MARKETS_PER_MATCH);

async function main() {
  const database = `bench_oddsstream_${Date.now().toString(36)}`;
  await admin(`CREATE DATABASE ${database}`);
  const url = databaseUrl(database);
  const book = new FakeSportsbook();
  const sockets = [];
  let child;
  let dataSource;
  try {
    const { buildDataSourceOptions, openDataSource } = require('../libs/database/src');
    dataSource = await openDataSource(
      buildDataSourceOptions({ url, applicationName: 'bench', migrationsRun: true }),
    );
    const key = await issueBenchKey(dataSource, { scopes: ['odds'], grants: { book: [SPORT] } });

    await book.start();
    seed(book);
    const port = await freePort();
    child = spawnService('odds-passthrough', {
      DATABASE_URL: url,
      NATS_URL: natsUrl,
      NATS_SUBJECT_PREFIX: database,
      ROLE: 'all',
      PORT: String(port),
      BOOK_UPSTREAM_URL: book.url,
      BOOK_POLL_MS: String(pollMs),
    });

    // Each price is used once, so a selection's price says when it was set.
    let nextPrice = 1000;
    const changedAt = new Map();
    const change = (m, k) => {
      const price = nextPrice++;
      changedAt.set(price, performance.now());
      book.putMarket(SPORT, total(m, k, price));
    };

    const latencies = [];
    const stats = { snapshots: 0, frames: 0, sampledSelections: 0, closed: 0, closeCodes: {} };
    let phase = 'warmup';
    const base = `ws://127.0.0.1:${port}/v1/book/data?key=${key}`;
    await until(
      () =>
        new Promise((resolve) => {
          const probe = new WsClient(base);
          probe.on('error', () => resolve(false));
          probe.on('open', () => probe.send(JSON.stringify({ action: 'subscribe_all' })));
          probe.on('message', (data) => {
            const frame = JSON.parse(data.toString());
            if (frame.type === 'snapshot') {
              probe.terminate();
              resolve(true);
            }
          });
          setTimeout(() => {
            probe.terminate();
            resolve(false);
          }, 1000);
        }),
      'the book to be ingested',
    );
    for (let c = 0; c < clientCount; c++) {
      const sampled = c < SAMPLED;
      const socket = new WsClient(base);
      sockets.push(socket);
      socket.on('message', (data) => {
        const receivedAt = performance.now();
        stats.frames += 1;
        if (phase === 'throughput' && !sampled) return;
        const frame = JSON.parse(data.toString());
        if (frame.type === 'snapshot') stats.snapshots += 1;
        if (frame.type !== 'update') return;
        if (phase === 'throughput') {
          stats.sampledSelections += frame.selections.length;
          return;
        }
        if (phase !== 'latency') return;
        for (const selection of frame.selections) {
          const at = changedAt.get(selection.price);
          if (at !== undefined) latencies.push(receivedAt - at);
        }
      });
      socket.on('close', (code) => {
        stats.closed += 1;
        stats.closeCodes[code] = (stats.closeCodes[code] ?? 0) + 1;
      });
      await new Promise((resolve, reject) => {
        socket.once('open', resolve);
        socket.once('error', reject);
      });
      socket.send(
        JSON.stringify(
          mode === 'all'
            ? { action: 'subscribe_all' }
            : { action: 'subscribe', match: matchIdOf(c % MATCHES) },
        ),
      );
    }
    const snapshotsDue = mode === 'all' ? clientCount * MATCHES : clientCount;
    await until(() => stats.snapshots >= snapshotsDue, 'every client to get its snapshots');

    // Phase 1: latency, one change every 100 ms for 10 s.
    phase = 'latency';
    for (let i = 0; i < 100; i++) {
      change(i % MATCHES, i % MARKETS_PER_MATCH);
      await sleep(100);
    }
    await sleep(pollMs + 1000);
    const sorted = latencies.sort((a, b) => a - b);

    // Phase 2: throughput, 2,000 selection changes a second in 10 batches a second.
    phase = 'throughput';
    const marketsPerTick = SELECTION_CHANGES_PER_SECOND / 2 / 10;
    const rss = [];
    stats.frames = 0;
    stats.sampledSelections = 0;
    let cursor = 0;
    const cpuBefore = cpuMs(child.pid);
    const started = performance.now();
    let ticks = 0;
    let lastSample = started;
    while (performance.now() - started < seconds * 1000) {
      const due = Math.floor((performance.now() - started) / 100);
      while (ticks < due) {
        for (let i = 0; i < marketsPerTick; i++, cursor++) {
          change(Math.floor(cursor / MARKETS_PER_MATCH) % MATCHES, cursor % MARKETS_PER_MATCH);
        }
        ticks++;
      }
      if (performance.now() - lastSample >= 1000) {
        rss.push(rssMb(child.pid));
        lastSample = performance.now();
      }
      await sleep(20);
    }
    const elapsed = (performance.now() - started) / 1000;
    await sleep(pollMs + 500);
    phase = 'done';
    const cpuUsed = cpuMs(child.pid) - cpuBefore;
    const budget = pollMs + 50;
    console.log(
      JSON.stringify(
        {
          clients: clientCount,
          mode,
          matches: MATCHES,
          markets: MATCHES * MARKETS_PER_MATCH,
          pollMs,
          latency: {
            changes: 100,
            deliveriesMeasured: sorted.length,
            ms: {
              p50: percentile(sorted, 50),
              p95: percentile(sorted, 95),
              p99: percentile(sorted, 99),
              max: percentile(sorted, 100),
            },
            budget: `p99 <= BOOK_POLL_MS + 50 = ${budget} ms`,
            withinBudget: percentile(sorted, 99) !== null && percentile(sorted, 99) <= budget,
          },
          throughput: {
            seconds: Math.round(elapsed),
            selectionChangesPerSecondAtBook: Math.round((ticks * marketsPerTick * 2) / elapsed),
            selectionsPerSecondPerSampledClient: Math.round(stats.sampledSelections / SAMPLED / elapsed),
            selectionsPerSecondPerSampledClientExpected:
              mode === 'all' ? SELECTION_CHANGES_PER_SECOND : SELECTION_CHANGES_PER_SECOND / MATCHES,
            framesPerSecondAllClients: Math.round(stats.frames / elapsed),
            serverCpu: {
              ms: Math.round(cpuUsed),
              usPerFrame: stats.frames > 0 ? Math.round((cpuUsed * 1000) / stats.frames) : null,
            },
            socketsClosed: stats.closed,
            closeCodes: stats.closeCodes,
            serverRssMb: { samples: rss, first: rss[0], max: Math.max(...rss), last: rss[rss.length - 1] },
          },
        },
        null,
        2,
      ),
    );
  } finally {
    for (const socket of sockets) socket.terminate();
    await stopService(child);
    await book.stop();
    await dataSource?.destroy();
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
