// Throughput of `GET /v1/matches?league=…&limit=100` on fixtures-live (ROLE=api, real PostgreSQL
// and NATS, real key check) against a bare Express server answering the very same bytes, measured
// side by side in one run with autocannon. The budget: fixtures-live sustains at least half the
// bare server's requests per second. Run from the repository root:
//
//   node bench/fixtures-rest.js [seconds=10] [connections=50]
//
// It creates a throwaway database on BENCH_PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres),
// migrates and seeds it (one league of 150 matches, one key), uses NATS_URL (default
// nats://127.0.0.1:4222) and drops the database at the end. Each load runs in its own autocannon
// process, so the load generator does not share a thread with the server it measures.
'use strict';

const { spawn } = require('node:child_process');
require('./support/ts-sources');

const express = require('express');
const { databaseUrl, admin } = require('./support/bench-env');
const { issueBenchKey } = require('./support/bench-keys');

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 50);
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const MATCHES = 150;

async function seed(url) {
  const { buildDataSourceOptions, openDataSource } = require('../libs/database/src');
  const dataSource = await openDataSource(
    buildDataSourceOptions({ url, applicationName: 'bench-seed', migrationsRun: true }),
  );
  try {
    const [sport] = await dataSource.query(
      `INSERT INTO fixtures.sports (provider_key, provider_id, name) VALUES ('soccer', 'sp-soccer', 'Soccer') RETURNING id`,
    );
    const [league] = await dataSource.query(
      `INSERT INTO fixtures.leagues (provider_id, sport_id, name) VALUES ('lg-bench', $1, 'Bench League') RETURNING id`,
      [sport.id],
    );
    for (let i = 0; i < MATCHES; i++) {
      await dataSource.query(
        `INSERT INTO fixtures.matches (provider_id, league_id, sport_id, stat_id, home_team_id, away_team_id,
           home_team, away_team, start_time, provider_status, status)
         VALUES ($1, $2, $3, $4, 'tm_h', 'tm_a', $5, $6, $7, 'scheduled', 'NOT_STARTED')`,
        [
          `fx-${i}`,
          league.id,
          sport.id,
          `st-${i}`,
          `Home Team ${i}`,
          `Away Team ${i}`,
          new Date(Date.UTC(2026, 10, 21, 12) + i * 900_000),
        ],
      );
    }
    const key = await issueBenchKey(dataSource, { scopes: ['fixtures'], fixturesSports: [sport.id] });
    return { key, leagueId: league.id };
  } finally {
    await dataSource.destroy();
  }
}

function autocannon(url, key, duration = seconds) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        require.resolve('autocannon/autocannon.js'),
        '-c',
        String(connections),
        '-d',
        String(duration),
        '-j',
        '-H',
        `X-API-Key=${key}`,
        url,
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', () => {
      try {
        const result = JSON.parse(out);
        resolve({
          requestsPerSecond: result.requests.average,
          latencyP99Ms: result.latency.p99,
          non2xx: result.non2xx,
          errors: result.errors,
        });
      } catch (error) {
        reject(error);
      }
    });
  });
}

async function main() {
  const database = `bench_fixtures_${Date.now().toString(36)}`;
  await admin(`CREATE DATABASE ${database}`);
  const url = databaseUrl(database);
  let app;
  let bare;
  try {
    const { key, leagueId } = await seed(url);
    Object.assign(process.env, {
      DATABASE_URL: url,
      NATS_URL: natsUrl,
      NATS_SUBJECT_PREFIX: database,
      ROLE: 'api',
      MIGRATIONS_RUN: 'false',
      LOG_LEVEL: 'warn',
    });
    const { NestFactory } = require('@nestjs/core');
    const { AppModule } = require('../apps/fixtures-live/src/app.module');
    const { configureFixturesApp } = require('../apps/fixtures-live/src/bootstrap');
    app = configureFixturesApp(await NestFactory.create(AppModule.forRoot(), { logger: ['error', 'warn'] }));
    await app.listen(0, '127.0.0.1');
    const nestUrl = `${await app.getUrl()}/v1/matches?league=${leagueId}&limit=100`.replace(
      '[::1]',
      '127.0.0.1',
    );
    const response = await fetch(nestUrl, { headers: { 'X-API-Key': key } });
    const body = Buffer.from(await response.arrayBuffer());
    const contentType = response.headers.get('content-type');
    if (response.status !== 200 || JSON.parse(body.toString()).count !== 100) {
      throw new Error(`unexpected answer ${response.status}: ${body.toString().slice(0, 200)}`);
    }

    const server = express();
    server.get('/v1/matches', (_req, res) => res.set('content-type', contentType).send(body));
    bare = await new Promise((resolve) => {
      const listening = server.listen(0, '127.0.0.1', () => resolve(listening));
    });
    const bareUrl = `http://127.0.0.1:${bare.address().port}/v1/matches?league=${leagueId}&limit=100`;

    // Warm both up, then measure them one after the other.
    await autocannon(bareUrl, key, 3);
    await autocannon(nestUrl, key, 3);
    const express_ = await autocannon(bareUrl, key);
    const fixtures = await autocannon(nestUrl, key);
    const ratio = fixtures.requestsPerSecond / express_.requestsPerSecond;
    console.log(
      JSON.stringify(
        {
          request: `GET /v1/matches?league=${leagueId}&limit=100 (${body.length} bytes)`,
          seconds,
          connections,
          bareExpress: express_,
          fixturesLive: fixtures,
          ratio: Math.round(ratio * 1000) / 1000,
          budget: 'ratio >= 0.5',
          withinBudget: ratio >= 0.5,
        },
        null,
        2,
      ),
    );
  } finally {
    await app?.close();
    await new Promise((resolve) => (bare ? bare.close(resolve) : resolve()));
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
