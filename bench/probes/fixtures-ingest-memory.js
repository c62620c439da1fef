// Memory of the fixtures-live ingest under a busy Saturday's live load: 300 soccer matches, each
// sending 2 changed states a second through the provider's /live stream (the fake provider of the
// tests), ingested, stored in PostgreSQL and published on NATS. The heap is sampled every 10 s after
// a forced collection; the budget is no growth trend over 10 minutes. Run from the repository root:
//
//   npm run bench -- --only=ingest-memory
//   (node --expose-gc bench/probes/fixtures-ingest-memory.js [seconds=600] [matches=300] [statesPerSecond=2])
//
// It creates a throwaway database on BENCH_PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres),
// uses NATS_URL (default nats://127.0.0.1:4222) and drops the database at the end. It prints the
// samples, the slope of a least-squares line through them (bytes per minute) and the states applied.
'use strict';

require('../support/ts-sources');

const { adminUrl, admin } = require('../support/bench-env');
const { reportFigures } = require('../support/probe-figures');
const { serveLiveCatalog } = require('../support/live-catalog');

const seconds = Number(process.argv[2] ?? 600);
const matchCount = Number(process.argv[3] ?? 300);
const statesPerSecond = Number(process.argv[4] ?? 2);
const SAMPLE_MS = 10_000;

function slopePerMinute(samples) {
  const n = samples.length;
  const mx = samples.reduce((sum, s) => sum + s.t, 0) / n;
  const my = samples.reduce((sum, s) => sum + s.heap, 0) / n;
  const num = samples.reduce((sum, s) => sum + (s.t - mx) * (s.heap - my), 0);
  const den = samples.reduce((sum, s) => sum + (s.t - mx) ** 2, 0);
  return den === 0 ? 0 : (num / den) * 60_000;
}

async function main() {
  const { FakeLivescores, soccerState } = require('../../test/support/fake-livescores');
  const database = `bench_ingest_${Date.now().toString(36)}`;
  await admin(`CREATE DATABASE ${database}`);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const fake = new FakeLivescores();
  serveLiveCatalog(fake, matchCount);
  await fake.start();
  let app;
  let ticker;
  try {
    Object.assign(process.env, {
      DATABASE_URL: url.toString(),
      NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      NATS_SUBJECT_PREFIX: database,
      ROLE: 'ingest',
      FIXTURES_UPSTREAM_URL: fake.url,
      FIXTURES_CATALOG_POLL_MS: '30000',
      LOG_LEVEL: 'warn',
    });
    const { NestFactory } = require('@nestjs/core');
    const { AppModule } = require('../../apps/fixtures-live/src/app.module');
    const { IngestService } = require('../../apps/fixtures-live/src/ingest/ingest.service');
    const { LiveWriter } = require('../../apps/fixtures-live/src/ingest/live-writer');
    app = await NestFactory.create(AppModule.forRoot(), { logger: ['error', 'warn'] });
    await app.init();
    const ingest = app.get(IngestService);
    while (ingest.completedPolls < 1) await new Promise((resolve) => setTimeout(resolve, 100));

    // Every tick changes a slice of the matches, so each match changes statesPerSecond times a second.
    const tickMs = 50;
    const perTick = (matchCount * statesPerSecond * tickMs) / 1000;
    let cursor = 0;
    let sent = 0;
    ticker = setInterval(() => {
      for (let k = 0; k < perTick; k++) {
        const i = cursor++ % matchCount;
        const round = Math.floor(cursor / matchCount);
        fake.push(
          `st-${i}`,
          soccerState({
            ball: { x: (round % 100) / 100, y: 0.5, vc: 1002 },
            clock: {
              minute: round % 90,
              second: round % 60,
              period: '1H',
              running: true,
              added: 0,
              at: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
            },
          }),
        );
        sent++;
      }
    }, tickMs);

    const samples = [];
    const started = Date.now();
    while (Date.now() - started < seconds * 1000) {
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
      global.gc?.();
      const memory = process.memoryUsage();
      samples.push({ t: Date.now() - started, heap: memory.heapUsed, rss: memory.rss });
      console.error(
        `${Math.round((Date.now() - started) / 1000)}s heap ${(memory.heapUsed / 1e6).toFixed(1)} MB, rss ${(memory.rss / 1e6).toFixed(1)} MB, states sent ${sent}, writer busy ${app.get(LiveWriter).busy}`,
      );
    }
    clearInterval(ticker);
    // The first samples include warm-up (JIT, pools, first loads of every match): judge the rest.
    const steady = samples.slice(Math.min(3, Math.floor(samples.length / 3)));
    console.log(
      JSON.stringify(
        {
          seconds,
          matches: matchCount,
          statesPerSecondPerMatch: statesPerSecond,
          statesSent: sent,
          heapMB: samples.map((s) => Math.round(s.heap / 1e5) / 10),
          rssMB: samples.map((s) => Math.round(s.rss / 1e5) / 10),
          steadyHeapSlopeKBPerMinute: Math.round(slopePerMinute(steady) / 1024),
        },
        null,
        2,
      ),
    );
    const last = samples[samples.length - 1];
    reportFigures([
      { figure: 'ingest heap slope after warm-up', unit: 'KB/min', samples: [slopePerMinute(steady) / 1024] },
      { figure: 'ingest heap at the end', unit: 'MB', samples: [last.heap / 1e6] },
    ]);
  } finally {
    clearInterval(ticker);
    await app?.close();
    await fake.stop();
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
