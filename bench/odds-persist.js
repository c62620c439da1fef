// Cost of the odds ingest's shared-state writes (PostgreSQL, schema `odds`) for a book of
// 100,000 markets: the first write of the whole book, a poll in which 1% of the markets
// changed, and one in which nothing changed. Each poll's diff (BookState) is turned into
// rows and NATS frames (buildPublication) and written in one transaction (BookStore), as the
// ingest does before publishing. Run from the repository root:
//
//   node bench/odds-persist.js [markets=100000] [runs=5]
//
// It creates a throwaway database on BENCH_PG_ADMIN_URL (default
// postgres://postgres@127.0.0.1:5432/postgres), migrates it and drops it at the end.
'use strict';

const path = require('node:path');
const { randomBytes } = require('node:crypto');
const root = path.join(__dirname, '..');
const tsconfig = require(path.join(root, 'tsconfig.json'));
require('ts-node').register({ transpileOnly: true, project: path.join(root, 'tsconfig.json') });
require('tsconfig-paths').register({ baseUrl: root, paths: tsconfig.compilerOptions.paths });

const { Client } = require('pg');
const { buildDataSourceOptions } = require('../libs/database/src/data-source-options');
const { openDataSource } = require('../libs/database/src/open-data-source');
const { BookState } = require('../apps/odds-passthrough/src/book/domain');
const { BookStore } = require('../apps/odds-passthrough/src/book/book-store');
const { buildPublication } = require('../apps/odds-passthrough/src/ingest/book-publication');

const ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SPORT = 29;
const MARKETS_PER_MATCHUP = 40;
const marketCount = Number(process.argv[2] ?? 100_000);
const runs = Number(process.argv[3] ?? 5);
const start = Date.parse('2026-11-21T12:00:00Z');

function matchup(id) {
  return {
    id,
    league_id: 1980,
    type: 'matchup',
    parent_id: null,
    is_live: false,
    start_time: '2026-11-21T15:00:00Z',
    version: 1,
    participants: [
      { id: id * 10 + 1, alignment: 'home', name: `Home ${id}` },
      { id: id * 10 + 2, alignment: 'away', name: `Away ${id}` },
    ],
    periods: [{ number: 0, status: 'open', cutoff_at: '2099-01-01T00:00:00Z' }],
  };
}

/** Alternate totals: two selections a market, like most of a large book. */
function market(matchupId, j, shift) {
  const line = j / 2 + 0.5;
  return {
    matchup_id: matchupId,
    key: `s;0;ou;${line}`,
    type: 'total',
    period: 0,
    is_alternate: j > 0,
    version: 1 + shift,
    limits: [{ type: 'maxRiskStake', amount: 1000 + j }],
    prices: [
      { designation: 'over', points: line, price: -110 - shift },
      { designation: 'under', points: line, price: -110 },
    ],
  };
}

function book(changedEvery, shift) {
  const matchups = [];
  const markets = [];
  for (let id = 1; markets.length < marketCount; id++) {
    matchups.push(matchup(id));
    for (let j = 0; j < MARKETS_PER_MATCHUP && markets.length < marketCount; j++) {
      const changed = changedEvery > 0 && markets.length % changedEvery === 0;
      markets.push(market(id, j, changed ? shift : 0));
    }
  }
  return { leagues: [{ id: 1980, name: 'League' }], matchups, markets };
}

async function admin(sql) {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timed(fn) {
  const began = performance.now();
  const result = await fn();
  return { ms: performance.now() - began, result };
}

async function main() {
  const name = `bench_odds_persist_${randomBytes(3).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const dataSource = await openDataSource(
    buildDataSourceOptions({ url: url.toString(), applicationName: 'bench', migrationsRun: true }),
  );
  try {
    const store = new BookStore(dataSource);
    const state = new BookState('book');
    let now = start;
    const write = async (diff) => {
      const publication = buildPublication(state, diff);
      if (!publication) return { ms: 0, rows: 0 };
      const { ms } = await timed(() => store.write('book', publication.write));
      return { ms, rows: publication.write.markets.length + publication.write.removedMarkets.length };
    };
    await write(state.applySports([{ id: SPORT, name: 'Soccer' }], now));
    await write(state.applyLabels(SPORT, [{ number: 0, description: 'Match' }], now));
    const first = await write(state.applyFull(SPORT, book(0, 0), now));

    const partial = [];
    const quiet = [];
    let rows = 0;
    for (let run = 0; run < runs; run++) {
      const moved = book(100, run + 1);
      const changed = await write(state.applyFull(SPORT, moved, (now += 1000)));
      partial.push(changed.ms);
      rows = changed.rows;
      const nothing = await write(state.applyFull(SPORT, moved, (now += 1000)));
      if (nothing.rows !== 0) throw new Error('a poll without changes wrote rows');
      quiet.push(nothing.ms);
    }
    const { ms: load } = await timed(() => store.load('book', 1000));
    const fmt = (ms) => `${ms.toFixed(1).padStart(8)} ms`;
    console.log(`odds persist bench: ${marketCount} markets, wall time, median of ${runs} runs`);
    console.log(`  first write of the whole book   ${fmt(first.ms)}   (${first.rows} market rows)`);
    console.log(`  poll with 1% changed            ${fmt(median(partial))}   (${rows} market rows upserted)`);
    console.log(`  poll with nothing changed       ${fmt(median(quiet))}   (no statement)`);
    console.log(`  load of the whole book by a replica starting late ${fmt(load)}`);
  } finally {
    await dataSource.destroy();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
