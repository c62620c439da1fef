// Workload 2: `GET /v1/matches?league=…&limit=100` with a key on fixtures-live (ROLE=api, from
// dist, real key check, a seeded league of 150 matches) against bare Express answering the same
// bytes (bare-rest-server.js). Both servers run on the server core at once and are loaded in
// turn, window by window, by autocannon in its own process on the load core, so both see the
// same background load. Figure: requests per second.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { freePort } = require('../support/bench-env');
const { issueBenchKey } = require('../support/bench-keys');
const { spawnOn, LOAD_CORE } = require('../support/cores');
const { ratioGoal, windowsRow } = require('../support/figures');
const { watchMachineLoad } = require('../support/machine-load');
const { spawnProduct, spawnBaseline, stopProcess, listening, withDatabase } = require('../support/services');

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

/** One autocannon window against `url` with the key, in its own process on the load core. */
function autocannon(url, key, seconds) {
  return new Promise((resolve, reject) => {
    const child = spawnOn(
      LOAD_CORE,
      process.execPath,
      [
        require.resolve('autocannon/autocannon.js'),
        ...['-c', String(CONNECTIONS), '-d', String(seconds), '-j', '-H', `X-API-Key=${key}`, url],
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

async function runRest({ quick }) {
  // The product's request path takes several seconds of load to be compiled: with 1 s of warm-up,
  // quick windows measured 0.48x where full ones measured 0.70-0.78x on the same build.
  const { reps, seconds, warmup } = quick
    ? { reps: 3, seconds: 2, warmup: 4 }
    : { reps: 5, seconds: 10, warmup: 5 };
  return withDatabase('rest', async (db) => {
    const { key, leagueId } = await seed(db.dataSource);
    const query = `/v1/matches?league=${leagueId}&limit=100`;
    const productPort = await freePort();
    const product = spawnProduct('fixtures-live', db, {
      ROLE: 'api',
      MIGRATIONS_RUN: 'false',
      PORT: String(productPort),
    });
    const bodyFile = path.join(os.tmpdir(), `${db.name}.json`);
    let baseline;
    try {
      const productUrl = `http://127.0.0.1:${productPort}${query}`;
      await listening(productUrl, 'fixtures-live to listen');
      const response = await fetch(productUrl, { headers: { 'X-API-Key': key } });
      const body = Buffer.from(await response.arrayBuffer());
      if (response.status !== 200 || JSON.parse(body.toString()).count !== 100) {
        throw new Error(`unexpected answer ${response.status}: ${body.toString().slice(0, 200)}`);
      }
      fs.writeFileSync(bodyFile, body);
      const baselinePort = await freePort();
      baseline = spawnBaseline('bare-rest-server.js', {
        PORT: String(baselinePort),
        BODY_FILE: bodyFile,
        CONTENT_TYPE: response.headers.get('content-type'),
      });
      const baselineUrl = `http://127.0.0.1:${baselinePort}${query}`;
      await listening(baselineUrl, 'the bare REST server to listen');

      await autocannon(baselineUrl, key, warmup);
      await autocannon(productUrl, key, warmup);
      const sides = { product: [], baseline: [] };
      for (let r = 0; r < reps; r++) {
        for (const [side, url] of [
          ['product', productUrl],
          ['baseline', baselineUrl],
        ]) {
          const watch = watchMachineLoad();
          const window = await autocannon(url, key, seconds);
          sides[side].push({ ...window, load: watch.stop() });
        }
      }
      return [
        windowsRow(
          {
            workload: `REST GET /v1/matches limit=100 (${body.length} B), ${CONNECTIONS} connections`,
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
      await stopProcess(baseline);
      fs.rmSync(bodyFile, { force: true });
    }
  });
}

module.exports = { runRest };
