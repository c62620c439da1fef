// Workload 4: a big book, 100,000 markets (MATCHUPS matchups × MARKETS_PER_MATCHUP two-way totals),
// on odds-passthrough ROLE=all (from dist) against the bare poller of bare-odds-server.js holding
// the book in plain objects, serving it over a bare HTTP server and storing each poll's changed
// rows in PostgreSQL with one multi-row statement (STORE_URL). Both poll the same fake sportsbook
// (in the load process) every POLL_MS. Figures, per server start:
//   - time from the server's spawn until every matchup is served complete (GET
//     /v1/book/odds?match=ID lists all its markets), read from the load process;
//   - VmRSS then (after a settle);
//   - CPU per poll while 1% of the markets change between polls (what the ingest stores
//     included), and CPU per poll while nothing changes: server CPU over a window ÷ the market
//     polls the fake book answered in it. A warm-up window of change comes first, unmeasured.
//     The windows of change run back to back, then the server is left to settle (its CPU per
//     second back to a quiet level), then the quiet windows: garbage collection of the changes,
//     which V8 finishes on its own threads seconds later, is paid by the windows of change (each
//     takes over the debt of the one before) instead of landing in the first quiet window.
// A server that is not complete within the timeout (30 s quick, 300 s full) is recorded at the
// timeout, as a lower bound, with how many matchups were complete, and has no further figures.
'use strict';
const { cpuMs, rssKb, freePort, paced, sleep } = require('../support/bench-env');
const { issueBenchKey } = require('../support/bench-keys');
const { ratioGoal, windowsRow } = require('../support/figures');
const { watchMachineLoad } = require('../support/machine-load');
const { spawnProduct, spawnBaseline, stopProcess } = require('../support/services');
const { withLoadProcess } = require('../support/sides');

const MATCHUPS = 2500;
const MARKETS_PER_MATCHUP = 40;
const POLL_MS = 1000;
const FUTURE = '2099-01-01T12:00:00Z';
const REQUESTS_IN_FLIGHT = 20;

// ---- The load process: the fake sportsbook and the completeness check. ----

const state = { book: null, sport: 0, shift: 0, cursor: 0 };

function total(matchupId, j, shift) {
  const { aTotal } = require('../../test/odds-passthrough/sportsbook-factory');
  const line = j / 2 + 0.5;
  return aTotal(line, {
    matchup_id: matchupId,
    cutoff_at: FUTURE,
    is_alternate: j > 0,
    prices: [
      { designation: 'over', points: line, price: -110 - shift },
      { designation: 'under', points: line, price: -110 },
    ],
  });
}

const matchupId = (m) => 1_800_000_000 + m;

const load = {
  async startBook() {
    const { FakeSportsbook } = require('../../test/support/fake-sportsbook');
    const { aMatchup } = require('../../test/odds-passthrough/sportsbook-factory');
    const { BIG_BOOK_SPORT } = require('../support/big-book');
    state.sport = BIG_BOOK_SPORT;
    state.book = new FakeSportsbook();
    await state.book.start();
    state.book.setSports([{ id: state.sport, name: 'Soccer' }]);
    state.book.setLabels(state.sport, [{ number: 0, description: 'Match' }]);
    state.book.setLeagues(state.sport, [{ id: 1980, name: 'Big League' }]);
    for (let m = 0; m < MATCHUPS; m++) {
      const id = matchupId(m);
      state.book.putMatchup(
        state.sport,
        aMatchup({
          id,
          start_time: FUTURE,
          participants: [
            { id: id * 10 + 1, alignment: 'home', name: `Home ${m}` },
            { id: id * 10 + 2, alignment: 'away', name: `Away ${m}` },
          ],
          periods: [{ number: 0, status: 'open', cutoff_at: FUTURE }],
        }),
      );
      for (let j = 0; j < MARKETS_PER_MATCHUP; j++) state.book.putMarket(state.sport, total(id, j, 0));
    }
    return { url: state.book.url, sport: state.sport };
  },

  /**
   * Resolves once every matchup's odds list all its markets at `url` (the key in `headers`), or
   * after `timeoutMs`; answers how many matchups were complete.
   */
  async waitComplete({ url, headers, timeoutMs }) {
    const deadline = performance.now() + timeoutMs;
    const pending = Array.from({ length: MATCHUPS }, (_, m) => matchupId(m));
    const complete = async (id) => {
      try {
        const response = await fetch(`${url}?match=${id}`, { headers });
        if (response.status !== 200) return false;
        const { selections } = await response.json();
        return new Set(selections.map((s) => s.market_key)).size === MARKETS_PER_MATCHUP;
      } catch {
        return false;
      }
    };
    while (pending.length > 0 && performance.now() < deadline) {
      const batch = pending.splice(0, REQUESTS_IN_FLIGHT);
      const done = await Promise.all(batch.map(complete));
      const left = batch.filter((_, i) => !done[i]);
      if (left.length > 0) {
        pending.unshift(...left);
        await sleep(100);
      }
    }
    return MATCHUPS - pending.length;
  },

  /** Market polls answered so far (full or delta). */
  polls: () => state.book.count(/^\/sports\/\d+\/markets/),

  /** For `seconds`, changes `share` of the markets once a second (0: nothing changes). */
  async change({ seconds, share }) {
    const perSecond = Math.round(MATCHUPS * MARKETS_PER_MATCHUP * share);
    state.shift += 1;
    await paced(seconds, 1000, () => {
      for (let i = 0; i < perSecond; i++, state.cursor++) {
        const m = state.cursor % MATCHUPS;
        const j = Math.floor(state.cursor / MATCHUPS) % MARKETS_PER_MATCHUP;
        state.book.putMarket(state.sport, total(matchupId(m), j, state.shift));
      }
    });
  },

  close: () => state.book?.stop(),
};

// ---- The runner's side. ----

/**
 * One server start: time to complete, RSS, then `reps` windows of 1% change and of quiet. A
 * server that does not serve every matchup complete within `timeoutS` counts as `timeoutS` (a
 * lower bound, `complete` says how many matchups were) and gets no further figures.
 */
async function measureStart(gen, spawnServer, { reps, seconds, settleMs, settledSeconds, timeoutS }) {
  const started = performance.now();
  const server = await spawnServer();
  try {
    const complete = await gen.call('waitComplete', { ...server.odds, timeoutMs: timeoutS * 1000 });
    const completeMs = performance.now() - started;
    if (complete < MATCHUPS) {
      process.stderr.write(
        `bench: big book: ${complete} of ${MATCHUPS} matchups complete after ${timeoutS} s\n`,
      );
      return {
        start: { completeS: timeoutS, complete, rssMb: rssKb(server.process.pid) / 1024 },
        changed: [],
        quiet: [],
      };
    }
    await sleep(settleMs);
    const start = { completeS: completeMs / 1000, complete, rssMb: rssKb(server.process.pid) / 1024 };
    const window = async (share) => {
      const watch = watchMachineLoad();
      const [cpuBefore, pollsBefore] = [cpuMs(server.process.pid), await gen.call('polls')];
      await gen.call('change', { seconds, share });
      const polls = (await gen.call('polls')) - pollsBefore;
      const cpu = cpuMs(server.process.pid) - cpuBefore;
      return { share, polls, cpuMs: cpu, cpuMsPerPoll: cpu / polls, load: watch.stop() };
    };
    const changed = [];
    const quiet = [];
    // A warm-up window of change, as every other workload has: the first polls that change
    // markets take paths the load did not, and compiling them is not what a poll costs.
    await window(0.01);
    for (let r = 0; r < reps; r++) changed.push(await window(0.01));
    const settled = await settleCpu(server.process.pid, settledSeconds);
    for (let r = 0; r < reps; r++) quiet.push({ ...(await window(0)), ...settled });
    return { start, changed, quiet };
  } finally {
    await stopProcess(server.process);
  }
}

/** A quiet process's CPU per second (both sides poll once a second, well under this). */
const QUIET_CPU_MS_PER_S = 30;
const SETTLE_TIMEOUT_MS = 75_000;

/**
 * Waits until the process has used at most QUIET_CPU_MS_PER_S in `seconds` consecutive seconds
 * (or the timeout); answers how long that took and the CPU used meanwhile. Full runs ask 25: V8's
 * memory reducer ran its full collections 20 to 30 s after the changes stopped (`--trace-gc`),
 * and with 2 they landed in the quiet windows, which then read the garbage of the windows of
 * change as the cost of a quiet poll (product and baseline alike, whichever caught them). Quick
 * runs keep 2, to stay short.
 */
async function settleCpu(pid, seconds) {
  const started = performance.now();
  const cpuBefore = cpuMs(pid);
  let quietSeconds = 0;
  let before = cpuBefore;
  while (quietSeconds < seconds && performance.now() - started < SETTLE_TIMEOUT_MS) {
    await sleep(1000);
    const now = cpuMs(pid);
    quietSeconds = now - before <= QUIET_CPU_MS_PER_S ? quietSeconds + 1 : 0;
    before = now;
  }
  return { settledMs: Math.round(performance.now() - started), settleCpuMs: before - cpuBefore };
}

async function runBigBook({ quick, starts }) {
  const options = quick
    ? { starts: 1, reps: 3, seconds: 3, settleMs: 1000, settledSeconds: 2, timeoutS: 30 }
    : { starts: 3, reps: 3, seconds: 10, settleMs: 5000, settledSeconds: 25, timeoutS: 300 };
  if (Number.isInteger(starts) && starts > 0) options.starts = starts;
  return withLoadProcess(__filename, 'bigbook', async (gen, db) => {
    const book = await gen.call('startBook');
    const key = await issueBenchKey(db.dataSource, { scopes: ['odds'], grants: { book: [book.sport] } });
    await db.dataSource.query(`CREATE TABLE bench_bare_prices (matchup_id bigint, market_key text,
      designation text, price int, PRIMARY KEY (matchup_id, market_key, designation))`);
    const spawnServer = (side) => async () => {
      const port = await freePort();
      const odds = { url: `http://127.0.0.1:${port}/v1/book/odds`, headers: { 'X-API-Key': key } };
      if (side === 'product') {
        const env = {
          ROLE: 'all',
          PORT: String(port),
          BOOK_UPSTREAM_URL: book.url,
          BOOK_POLL_MS: String(POLL_MS),
        };
        return { process: spawnProduct('odds-passthrough', db, env), odds };
      }
      await db.dataSource.query('TRUNCATE bench_bare_prices');
      const env = {
        PORT: String(port),
        UPSTREAM_URL: book.url,
        SPORT: String(book.sport),
        POLL_MS: String(POLL_MS),
      };
      return { process: spawnBaseline('bare-odds-server.js', { ...env, STORE_URL: db.url }), odds };
    };
    const sides = { product: [], baseline: [] };
    for (let s = 0; s < options.starts; s++) {
      for (const side of ['product', 'baseline'])
        sides[side].push(await measureStart(gen, spawnServer(side), options));
    }
    const starts = (side) => sides[side].map((run) => ({ ...run.start, load: run.changed[0]?.load }));
    const windows = (side, kind) => sides[side].flatMap((run) => run[kind]);
    const workload = `big book ${MATCHUPS * MARKETS_PER_MATCHUP} markets (${MATCHUPS} × ${MARKETS_PER_MATCHUP})`;
    const timeRow = windowsRow(
      {
        workload,
        figure: 'time until every matchup is served complete',
        unit: 's',
        key: 'completeS',
        goal: ratioGoal('<=', 2),
      },
      starts('product'),
      starts('baseline'),
    );
    timeRow.productLowerBound = sides.product.some((run) => run.start.complete < MATCHUPS);
    // A product start that never completed has no RSS-after-load or poll figures.
    if (windows('product', 'changed').length === 0 || windows('baseline', 'changed').length === 0)
      return [timeRow];
    return [
      timeRow,
      windowsRow(
        { workload, figure: 'server RSS after load', unit: 'MB', key: 'rssMb', goal: ratioGoal('<=', 1.5) },
        starts('product'),
        starts('baseline'),
      ),
      windowsRow(
        {
          workload,
          figure: 'CPU per poll, 1% changed, storing included',
          unit: 'ms',
          key: 'cpuMsPerPoll',
          goal: ratioGoal('<=', 1.5),
        },
        windows('product', 'changed'),
        windows('baseline', 'changed'),
      ),
      windowsRow(
        {
          workload,
          figure: 'CPU per poll, nothing changed',
          unit: 'ms',
          key: 'cpuMsPerPoll',
          goal: ratioGoal('<=', 1),
        },
        windows('product', 'quiet'),
        windows('baseline', 'quiet'),
      ),
    ];
  });
}

module.exports = { load, runBigBook };
