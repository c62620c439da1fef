// Cost of one sportsbook poll in the odds ingest's diff engine (IngestBook), with 100,000
// markets listed: a full rebuild, a full poll in which nothing changed and one in which 1%
// of the markets changed. Run from the repository root:
//
//   npm run bench -- --only=odds-poll   (node bench/probes/odds-poll.js [markets=100000] [runs=5])
//
// The domain is plain TypeScript, compiled on the fly by ts-node (transpile only). Polls are
// timed as a poller runs them: steadily against one state, paying their share of garbage
// collection; the heap is not collected by force between steps, because a forced full
// collection leaves background sweeping that would be billed to the next step.
'use strict';

const path = require('node:path');
require('ts-node').register({
  transpileOnly: true,
  project: path.join(__dirname, '..', '..', 'tsconfig.json'),
});

const { IngestBook } = require('../../apps/odds-passthrough/src/book/domain');
const { benchMatchup, bigBookArgs, bigBookBody, BIG_BOOK_SPORT } = require('../support/big-book');
const { reportFigures } = require('../support/probe-figures');
const { parseLeagues, parseMarketsFull, parseMatchups } = require('../../apps/odds-passthrough/src/upstream');

const SPORT = BIG_BOOK_SPORT;
const { marketCount, runs } = bigBookArgs();
const now = Date.parse('2026-11-21T12:00:00Z');

function matchup(id) {
  return benchMatchup(id, {
    leagueId: 1980 + (id % 20),
    periods: [
      { number: 0, status: 'open', cutoff_at: '2026-11-21T15:00:00Z' },
      { number: 1, status: 'open', cutoff_at: '2026-11-21T15:00:00Z' },
    ],
  });
}

/** A mix of the four market types with alternate lines, like a large book. */
function market(matchupId, j, version, shift) {
  const base = { matchup_id: matchupId, period: j % 2, is_alternate: j > 3, version };
  const limits = [{ type: 'maxRiskStake', amount: 1000 + j }];
  const line = (j >> 2) / 2 + 0.5;
  switch (j % 4) {
    case 0:
      return {
        ...base,
        key: `s;${j % 2};m;${j}`,
        type: 'moneyline',
        limits,
        prices: [
          { designation: 'home', price: 150 + shift },
          { designation: 'away', price: -170 - shift },
          { designation: 'draw', price: 240 },
        ],
      };
    case 1:
      return {
        ...base,
        key: `s;${j % 2};s;-${line}`,
        type: 'spread',
        limits,
        prices: [
          { designation: 'home', points: -line, price: 110 + shift },
          { designation: 'away', points: line, price: -130 - shift },
        ],
      };
    case 2:
      return {
        ...base,
        key: `s;${j % 2};ou;${line}`,
        type: 'total',
        limits,
        prices: [
          { designation: 'over', points: line, price: -110 - shift },
          { designation: 'under', points: line, price: -110 },
        ],
      };
    default:
      return {
        ...base,
        key: `s;${j % 2};tt;${line};home`,
        type: 'team_total',
        side: 'home',
        limits,
        prices: [
          { designation: 'over', points: line, price: 105 + shift },
          { designation: 'under', points: line, price: -125 },
        ],
      };
  }
}

function book(changedEvery) {
  const { matchups, markets } = bigBookBody(marketCount, changedEvery, {
    matchup,
    market: (id, j, changed) => market(id, j, changed ? 2 : 1, changed ? 5 : 0),
  });
  const leagues = Array.from({ length: 20 }, (_, i) => ({ id: 1980 + i, name: `League ${i}` }));
  // through JSON and the strict parsers, as the poller hands it over
  const wire = JSON.parse(JSON.stringify({ leagues, matchups, markets }));
  return {
    leagues: parsed(parseLeagues(wire.leagues)),
    matchups: parsed(parseMatchups(wire.matchups)),
    markets: parsed(parseMarketsFull({ last: 1, markets: wire.markets })).markets,
  };
}

function parsed(result) {
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

/**
 * CPU time of this process (user + system) rather than wall time: the figures then hold on
 * a machine shared with other work, where wall time mostly measures waiting for a core.
 */
function time(fn) {
  const start = process.cpuUsage();
  const result = fn();
  const used = process.cpuUsage(start);
  return { ms: (used.user + used.system) / 1000, result };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function changedSelections(diff) {
  return diff.changes.reduce((n, c) => n + c.selections.length, 0);
}

const unchanged = book(0);
const onePercent = book(100);
const labels = [
  { number: 0, description: 'Match' },
  { number: 1, description: '1st Half' },
];
const body = JSON.stringify({ last: 1, markets: unchanged.markets });

const rebuild = [];
const noChange = [];
const partial = [];
const parse = [];
let selectionsOnePercent = 0;
let state;
for (let run = 0; run < runs; run++) {
  state = new IngestBook('book');
  state.applyLabels(SPORT, labels, now);
  rebuild.push(time(() => state.applyFull(SPORT, unchanged, now)).ms);
  parse.push(time(() => parseMarketsFull(JSON.parse(body))).ms);
}
// Steady polling of the last state: each book applied twice in a row, so the first
// application of a book moves 1% of the markets (there and back) and the second moves none.
let at = now;
for (let run = 0; run < runs; run++) {
  for (const next of [onePercent, unchanged]) {
    const moved = time(() => state.applyFull(SPORT, next, (at += 1000)));
    selectionsOnePercent = changedSelections(moved.result);
    partial.push(moved.ms);
    const quiet = time(() => state.applyFull(SPORT, next, (at += 1000)));
    if (quiet.result.changes.length !== 0) throw new Error('a poll without changes reported changes');
    noChange.push(quiet.ms);
  }
}

const figures = {
  rebuild: median(rebuild),
  noChange: median(noChange),
  onePercent: median(partial),
  parse: median(parse),
};
const fmt = (ms) => `${ms.toFixed(1).padStart(8)} ms`;
console.log(
  `odds poll bench: ${marketCount} markets, ${unchanged.matchups.length} matchups, CPU time, median of ${runs} runs`,
);
console.log(`  full rebuild (empty state)      ${fmt(figures.rebuild)}`);
console.log(
  `  full poll, nothing changed      ${fmt(figures.noChange)}   ${(figures.noChange / figures.rebuild).toFixed(3)} of a rebuild`,
);
console.log(
  `  full poll, 1% changed           ${fmt(figures.onePercent)}   ${(figures.onePercent / figures.rebuild).toFixed(3)} of a rebuild (${selectionsOnePercent} selections re-sent)`,
);
console.log(
  `  for scale: JSON.parse + strict parse of the markets body ${fmt(figures.parse)} (${(body.length / 1e6).toFixed(1)} MB)`,
);
reportFigures([
  { figure: `diff engine CPU: full rebuild of ${marketCount} markets`, unit: 'ms', samples: rebuild },
  { figure: 'diff engine CPU: full poll, nothing changed', unit: 'ms', samples: noChange },
  { figure: 'diff engine CPU: full poll, 1% changed', unit: 'ms', samples: partial },
  { figure: 'CPU of JSON.parse + strict parse of the markets body', unit: 'ms', samples: parse },
]);
