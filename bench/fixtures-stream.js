// Latency of the live-score stream: a provider state pushed on the fake provider's /live
// WebSocket until the `update` frame reaches a subscribed client, with 1,000 subscribers spread
// over 100 live matches (10 each), every match changing twice a second. The budget: p99 under
// 50 ms on this machine, load generator included. Run from the repository root:
//
//   node bench/fixtures-stream.js [seconds=30] [subscribers=1000] [matches=100]
//
// fixtures-live (ROLE=all: ingest, PostgreSQL writes, NATS, stream) runs as its own process from
// the TypeScript sources; the fake provider and the clients share this process. It creates a
// throwaway database on BENCH_PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres),
// uses NATS_URL (default nats://127.0.0.1:4222) and drops the database at the end.
'use strict';

const { spawnService, stopService } = require('./support/ts-sources');

const { WebSocket: WsClient } = require('ws');
const { FakeLivescores, soccerState } = require('../test/support/fake-livescores');
const { databaseUrl, admin, sleep, until, cpuMs, freePort, percentile } = require('./support/bench-env');
const { issueBenchKey } = require('./support/bench-keys');
const { liveCatalog } = require('./support/live-catalog');

const seconds = Number(process.argv[2] ?? 30);
const subscribers = Number(process.argv[3] ?? 1000);
const matchCount = Number(process.argv[4] ?? 100);
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const CHANGES_PER_MATCH_PER_SECOND = 2;

async function main() {
  const database = `bench_fxstream_${Date.now().toString(36)}`;
  await admin(`CREATE DATABASE ${database}`);
  const url = databaseUrl(database);
  const fake = new FakeLivescores();
  const sockets = [];
  let child;
  let dataSource;
  let nats;
  try {
    const { buildDataSourceOptions, openDataSource } = require('../libs/database/src');
    dataSource = await openDataSource(
      buildDataSourceOptions({ url, applicationName: 'bench', migrationsRun: true }),
    );
    fake.setCatalog(liveCatalog(matchCount));
    await fake.start();
    const port = await freePort();
    child = spawnService('fixtures-live', {
      DATABASE_URL: url,
      NATS_URL: natsUrl,
      NATS_SUBJECT_PREFIX: database,
      ROLE: 'all',
      PORT: String(port),
      FIXTURES_UPSTREAM_URL: fake.url,
      FIXTURES_CATALOG_POLL_MS: '30000',
    });
    await until(async () => {
      const [row] = await dataSource.query('SELECT count(*)::int AS n FROM fixtures.matches');
      return row.n === matchCount;
    }, 'the catalog to be ingested');
    await until(() => fake.liveClients > 0, 'the live feed to connect');
    const rows = await dataSource.query('SELECT id, provider_id FROM fixtures.matches');
    const idOf = new Map(rows.map((row) => [row.provider_id, row.id]));
    const [sport] = await dataSource.query(`SELECT id FROM fixtures.sports WHERE provider_key = 'soccer'`);
    const key = await issueBenchKey(dataSource, {
      scopes: ['live_scores_statistics'],
      fixturesSports: [sport.id],
    });

    // Every match goes live, then each subscriber follows one match.
    const goals = new Array(matchCount).fill(0);
    const pushedAt = new Map();
    const push = (i) => {
      goals[i] += 1;
      pushedAt.set(`${idOf.get(`fx-${i}`)}:${goals[i]}`, performance.now());
      fake.push(`st-${i}`, soccerState({ score: { home: goals[i], away: 0 } }));
    };
    for (let i = 0; i < matchCount; i++) push(i);

    // The same changes as seen on NATS, to split the latency into ingest (provider → NATS) and
    // stream (NATS → client) parts.
    const { connect } = require('nats');
    nats = await connect({ servers: natsUrl });
    const publishedAt = new Map();
    nats.subscribe(`${database}.fixtures.live.>`, {
      callback: (_error, message) => {
        const at = performance.now();
        const data = JSON.parse(Buffer.from(message.data).toString());
        publishedAt.set(`${data.match_id}:${data.score.home}`, at);
      },
    });

    const latencies = [];
    const ingestLatencies = [];
    const streamLatencies = [];
    let measuring = false;
    let snapshots = 0;
    let closedEarly = 0;
    const base = `ws://127.0.0.1:${port}/v1/stream?key=${key}`;
    for (let s = 0; s < subscribers; s++) {
      const matchId = idOf.get(`fx-${s % matchCount}`);
      const socket = new WsClient(base);
      sockets.push(socket);
      socket.on('message', (data) => {
        const receivedAt = performance.now();
        const frame = JSON.parse(data.toString());
        if (frame.op === 'snapshot') snapshots += 1;
        if (frame.op !== 'update') return;
        if (!measuring) return;
        const change = `${frame.data.match_id}:${frame.data.score.home}`;
        const sentAt = pushedAt.get(change);
        const natsAt = publishedAt.get(change);
        if (sentAt === undefined) return;
        latencies.push(receivedAt - sentAt);
        if (natsAt !== undefined) {
          ingestLatencies.push(natsAt - sentAt);
          streamLatencies.push(receivedAt - natsAt);
        }
      });
      socket.on('close', () => (closedEarly += measuring ? 1 : 0));
      await new Promise((resolve, reject) => {
        socket.once('open', resolve);
        socket.once('error', reject);
      });
      socket.send(JSON.stringify({ action: 'subscribe', match_id: matchId }));
    }
    await until(() => snapshots >= subscribers, 'every subscriber to get its snapshot');

    // Load: one push every 1000 / (matches × 2) ms, round robin, so each match changes twice a second.
    measuring = true;
    const cpuBefore = cpuMs(child.pid);
    const interval = 1000 / (matchCount * CHANGES_PER_MATCH_PER_SECOND);
    const started = performance.now();
    let pushes = 0;
    while (performance.now() - started < seconds * 1000) {
      const due = Math.floor((performance.now() - started) / interval);
      while (pushes < due) push(pushes++ % matchCount);
      await sleep(Math.max(1, interval));
    }
    await sleep(1000);
    measuring = false;
    const cpuUsed = cpuMs(child.pid) - cpuBefore;
    const sorted = latencies.sort((a, b) => a - b);
    const summary = (values) => {
      const ordered = values.sort((a, b) => a - b);
      return { p50: percentile(ordered, 50), p99: percentile(ordered, 99) };
    };
    const expected = pushes * (subscribers / matchCount);
    console.log(
      JSON.stringify(
        {
          subscribers,
          matches: matchCount,
          seconds,
          statesPushed: pushes,
          statesPerSecond: Math.round(pushes / seconds),
          updatesExpected: expected,
          updatesMeasured: sorted.length,
          socketsClosed: closedEarly,
          latencyMs: {
            p50: percentile(sorted, 50),
            p95: percentile(sorted, 95),
            p99: percentile(sorted, 99),
            max: percentile(sorted, 100),
          },
          splitMs: {
            providerToNats: summary(ingestLatencies),
            natsToClient: summary(streamLatencies),
          },
          serverCpu: {
            ms: Math.round(cpuUsed),
            usPerDelivery: latencies.length > 0 ? Math.round((cpuUsed * 1000) / latencies.length) : null,
          },
          budget: 'p99 < 50 ms',
          withinBudget: percentile(sorted, 99) !== null && percentile(sorted, 99) < 50,
        },
        null,
        2,
      ),
    );
  } finally {
    for (const socket of sockets) socket.terminate();
    await stopService(child);
    await nats?.close();
    await fake.stop();
    await dataSource?.destroy();
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
