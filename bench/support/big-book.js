// Upstream matchups of the big-book benchmarks (odds-poll, odds-persist): one soccer matchup
// per id, with its two participants and the periods given.
'use strict';

function benchMatchup(id, { leagueId = 1980, periods }) {
  return {
    id,
    league_id: leagueId,
    type: 'matchup',
    parent_id: null,
    is_live: false,
    start_time: '2026-11-21T15:00:00Z',
    version: 1,
    participants: [
      { id: id * 10 + 1, alignment: 'home', name: `Home ${id}` },
      { id: id * 10 + 2, alignment: 'away', name: `Away ${id}` },
    ],
    periods,
  };
}

/** The sport of the big book, and how many markets each matchup has. */
const BIG_BOOK_SPORT = 29;
const MARKETS_PER_MATCHUP = 40;

/**
 * `marketCount` markets, MARKETS_PER_MATCHUP per matchup (ids from 1); every
 * `changedEvery`th market (none for 0) is built as changed.
 */
function bigBookBody(marketCount, changedEvery, { matchup, market }) {
  const matchups = [];
  const markets = [];
  for (let id = 1; markets.length < marketCount; id++) {
    matchups.push(matchup(id));
    for (let j = 0; j < MARKETS_PER_MATCHUP && markets.length < marketCount; j++) {
      markets.push(market(id, j, changedEvery > 0 && markets.length % changedEvery === 0));
    }
  }
  return { matchups, markets };
}

/** The command line of a big-book script: `[markets=100000] [runs=5]`. */
function bigBookArgs(argv = process.argv) {
  return { marketCount: Number(argv[2] ?? 100_000), runs: Number(argv[3] ?? 5) };
}

module.exports = { benchMatchup, bigBookArgs, bigBookBody, BIG_BOOK_SPORT, MARKETS_PER_MATCHUP };
