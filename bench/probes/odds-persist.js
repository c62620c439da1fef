// Cost of the odds ingest's shared-state writes (PostgreSQL, schema `odds`) for a book of
// 100,000 markets: the first write of the whole book, a poll in which 1% of the markets
// changed, and one in which nothing changed. Each poll's diff (IngestBook) is turned into
// rows and NATS frames (buildPublication) and written (BookRepository), as the ingest does before
// publishing: wall time, and for the 1% poll this process's CPU for building and writing it.
// Run from the repository root:
//
//   npm run bench -- --only=odds-persist   (node bench/probes/odds-persist.js [markets=100000] [runs=5])
//
// It creates a throwaway database on BENCH_PG_ADMIN_URL (default
// postgres://postgres@127.0.0.1:5432/postgres), migrates it and drops it at the end.
'use strict';

const { randomBytes } = require('node:crypto');
require('../support/ts-sources');

const { admin, databaseUrl } = require('../support/bench-env');
const { reportFigures } = require('../support/probe-figures');
const { buildDataSourceOptions } = require('../../libs/database/src/data-source-options');
const { openDataSource } = require('../../libs/database/src/open-data-source');
const { IngestBook } = require('../../apps/odds-passthrough/src/book/domain');
const { benchMatchup, bigBookArgs, bigBookBody, BIG_BOOK_SPORT } = require('../support/big-book');
const { BookRepository } = require('../../apps/odds-passthrough/src/book/book.repository');
const { buildPublication } = require('../../apps/odds-passthrough/src/ingest/book-publication');

const SPORT = BIG_BOOK_SPORT;
const { marketCount, runs } = bigBookArgs();
const start = Date.parse('2026-11-21T12:00:00Z');

function matchup(id) {
  return benchMatchup(id, { periods: [{ number: 0, status: 'open', cutoff_at: '2099-01-01T00:00:00Z' }] });
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
  const { matchups, markets } = bigBookBody(marketCount, changedEvery, {
    matchup,
    market: (id, j, changed) => market(id, j, changed ? shift : 0),
  });
  return { leagues: [{ id: 1980, name: 'League' }], matchups, markets };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Wall time, and this process's CPU meanwhile: the client's side of a write (rows built, sent, answered). */
async function timed(fn) {
  const began = performance.now();
  const cpuBefore = process.cpuUsage();
  const result = await fn();
  const cpu = process.cpuUsage(cpuBefore);
  return { ms: performance.now() - began, cpuMs: (cpu.user + cpu.system) / 1000, result };
}

async function main() {
  const name = `bench_odds_persist_${randomBytes(3).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  const dataSource = await openDataSource(
    buildDataSourceOptions({ url: databaseUrl(name), applicationName: 'bench', migrationsRun: true }),
  );
  try {
    const repository = new BookRepository(dataSource);
    const state = new IngestBook('book');
    let now = start;
    const write = async (diff) => {
      const { cpuMs: buildMs, result: publication } = await timed(() => buildPublication(state, diff));
      if (!publication) return { ms: 0, cpuMs: 0, rows: 0 };
      const { ms, cpuMs } = await timed(() => repository.write('book', publication.write));
      return {
        ms,
        cpuMs: buildMs + cpuMs,
        rows: publication.write.markets.length + publication.write.removedMarkets.length,
      };
    };
    await write(state.applySports([{ id: SPORT, name: 'Soccer' }], now));
    await write(state.applyLabels(SPORT, [{ number: 0, description: 'Match' }], now));
    const first = await write(state.applyFull(SPORT, book(0, 0), now));

    const partial = [];
    const partialCpu = [];
    const quiet = [];
    let rows = 0;
    for (let run = 0; run < runs; run++) {
      const moved = book(100, run + 1);
      const changed = await write(state.applyFull(SPORT, moved, (now += 1000)));
      partial.push(changed.ms);
      partialCpu.push(changed.cpuMs);
      rows = changed.rows;
      const nothing = await write(state.applyFull(SPORT, moved, (now += 1000)));
      if (nothing.rows !== 0) throw new Error('a poll without changes wrote rows');
      quiet.push(nothing.ms);
    }
    const { ms: load } = await timed(() => repository.load('book', 1000));
    const fmt = (ms) => `${ms.toFixed(1).padStart(8)} ms`;
    console.log(`odds persist bench: ${marketCount} markets, wall time, median of ${runs} runs`);
    console.log(`  first write of the whole book   ${fmt(first.ms)}   (${first.rows} market rows)`);
    console.log(`  poll with 1% changed            ${fmt(median(partial))}   (${rows} market rows upserted)`);
    console.log(`    its client CPU, rows built    ${fmt(median(partialCpu))}`);
    console.log(`  poll with nothing changed       ${fmt(median(quiet))}   (no statement)`);
    console.log(`  load of the whole book by a replica starting late ${fmt(load)}`);
    reportFigures([
      { figure: `first write of ${first.rows} market rows, wall`, unit: 'ms', samples: [first.ms] },
      { figure: `poll write, 1% changed (${rows} rows), wall`, unit: 'ms', samples: partial },
      {
        figure: 'poll write, 1% changed, client CPU (publication built, rows sent)',
        unit: 'ms',
        samples: partialCpu,
      },
      { figure: 'poll write, nothing changed, wall', unit: 'ms', samples: quiet },
      { figure: 'load of the whole book by a late replica, wall', unit: 'ms', samples: [load] },
    ]);
  } finally {
    await dataSource.destroy();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
