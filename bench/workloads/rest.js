// Workload 2: `GET /v1/matches?league=…&limit=100` with a key on fixtures-live (ROLE=api, from
// dist, real key check, a seeded league of 150 matches) against bare Express answering the same
// bytes (support/rest-windows.js). Figure: requests per second.
'use strict';
const { freePort } = require('../support/bench-env');
const { issueBenchKey } = require('../support/bench-keys');
const { ratioGoal, windowsRow } = require('../support/figures');
const { restWindows } = require('../support/rest-windows');
const { spawnProduct, stopProcess, listening, withDatabase } = require('../support/services');

const MATCHES = 150;
const CONNECTIONS = 50;

async function seed(dataSource) {
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
}

async function runRest({ quick }) {
  // The product's request path takes several seconds of load to be compiled: with 1 s of warm-up,
  // quick windows measured 0.48x where full ones measured 0.70-0.78x on the same build.
  const { reps, seconds, warmup } = quick
    ? { reps: 3, seconds: 2, warmup: 4 }
    : { reps: 5, seconds: 10, warmup: 5 };
  return withDatabase('rest', async (db) => {
    const { key, leagueId } = await seed(db.dataSource);
    const productPort = await freePort();
    const product = spawnProduct('fixtures-live', db, {
      ROLE: 'api',
      MIGRATIONS_RUN: 'false',
      PORT: String(productPort),
    });
    try {
      const origin = `http://127.0.0.1:${productPort}`;
      const pathAndQuery = `/v1/matches?league=${leagueId}&limit=100`;
      await listening(`${origin}${pathAndQuery}`, 'fixtures-live to listen');
      const sides = await restWindows({
        origin,
        pathAndQuery,
        key,
        check: (page) => page.count === 100,
        connections: CONNECTIONS,
        reps,
        seconds,
        warmup,
      });
      return [
        windowsRow(
          {
            workload: `REST GET /v1/matches limit=100 (${sides.bytes} B), ${CONNECTIONS} connections`,
            figure: 'requests per second',
            unit: 'req/s',
            key: 'requestsPerSecond',
            goal: ratioGoal('>=', 0.8),
          },
          sides.product,
          sides.baseline,
        ),
      ];
    } finally {
      await stopProcess(product);
    }
  });
}

module.exports = { runRest };
