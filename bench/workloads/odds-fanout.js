// Workload 3: the odds stream of odds-passthrough (ROLE=all, from dist, polling the fake
// sportsbook every POLL_MS) against a bare poller + `ws` broadcaster (bare-odds-server.js) polling
// the same fake book. CLIENTS clients each sent `subscribe_all` over MATCHES matches of
// MARKETS_PER_MATCH two-way totals; the load process changes SELECTION_CHANGES_PER_SECOND
// selections a second (half as many markets, both prices each), in 10 batches a second. Figures:
// the server's CPU time per update frame delivered to a client, and its CPU time for the burst of
// CLIENTS subscribe_all at the start, until every client holds every match's snapshot (what a
// reconnect of every trading desk costs). Then, once the clients are gone and the book is quiet,
// the product's `GET /v1/book/odds?match=` against bare Express answering the same bytes
// (support/rest-windows.js): requests per second.
'use strict';
const { cpuMs, freePort, paced, sleep, until } = require('../support/bench-env');
const { issueBenchKey } = require('../support/bench-keys');
const { openClients, closeClients, dropClients } = require('../support/clients');
const { median, ratioGoal, windowsRow } = require('../support/figures');
const { spawnProduct, spawnBaseline, stopProcess, listening } = require('../support/services');
const { restWindows } = require('../support/rest-windows');
const { withLoadProcess, productThenBaseline, cpuWindows } = require('../support/sides');
const { watchMachineLoad } = require('../support/machine-load');

/** The load; `SAMPLED` clients parse their frames to count selections, the others count frames and bytes. */
const {
  CLIENTS,
  SAMPLED,
  POLL_MS,
  MATCHES,
  MARKETS_PER_MATCH,
  SELECTION_CHANGES_PER_SECOND,
  TICKS_PER_SECOND,
  REST_CONNECTIONS,
} = {
  CLIENTS: 1000,
  SAMPLED: 20,
  POLL_MS: 1000,
  MATCHES: 100,
  MARKETS_PER_MATCH: 10,
  SELECTION_CHANGES_PER_SECOND: 2000,
  TICKS_PER_SECOND: 10,
  REST_CONNECTIONS: 50,
};

// ---- The load process: the fake sportsbook and the clients. ----

const state = { book: null, sockets: [], snapshots: 0, window: null, nextPrice: 1000, cursor: 0 };

function wide() {
  return require('../../test/odds-passthrough/wide-book');
}

function onFrame(data, i) {
  const window = state.window;
  if (!window) {
    if (JSON.parse(data.toString()).type === 'snapshot') state.snapshots += 1;
    return;
  }
  if (i >= SAMPLED) {
    window.delivered += 1;
    window.bytes += data.length;
    return;
  }
  const frame = JSON.parse(data.toString());
  if (frame.type !== 'update') return;
  window.delivered += 1;
  window.bytes += data.length;
  window.sampledSelections += frame.selections.length;
}

const load = {
  async startBook() {
    const { FakeSportsbook } = require('../../test/support/fake-sportsbook');
    state.book = new FakeSportsbook();
    await state.book.start();
    wide().seedWideBook(state.book, MATCHES, MARKETS_PER_MATCH);
    return { url: state.book.url, sport: wide().WIDE_SPORT, matchId: wide().wideMatchId(0) };
  },

  /** Resolves once a probe socket's subscribe_all gets a snapshot: the server holds the book. */
  async bookServed({ url }) {
    await until(async () => {
      const [probe] = await openClients({
        url,
        count: 1,
        request: () => ({ action: 'subscribe_all' }),
        onFrame,
      });
      await sleep(500);
      await closeClients([probe]);
      const any = state.snapshots > 0;
      state.snapshots = 0;
      return any;
    }, 'the server to hold the book');
  },

  /** Opens CLIENTS sockets on `url` that each send subscribe_all; resolves once each has every snapshot. */
  async subscribe({ url }) {
    state.sockets = await openClients({
      url,
      count: CLIENTS,
      request: () => ({ action: 'subscribe_all' }),
      onFrame,
    });
    await until(() => state.snapshots >= CLIENTS * MATCHES, 'every client to get its snapshots');
    return state.sockets.length;
  },

  /** Changes SELECTION_CHANGES_PER_SECOND selections a second for `seconds`, then waits a poll and a half. */
  async drive({ seconds }) {
    const { wideTotal, WIDE_SPORT } = wide();
    const window = (state.window = { delivered: 0, bytes: 0, sampledSelections: 0 });
    const marketsPerTick = SELECTION_CHANGES_PER_SECOND / 2 / TICKS_PER_SECOND;
    const ticks = await paced(seconds, 1000 / TICKS_PER_SECOND, () => {
      for (let i = 0; i < marketsPerTick; i++, state.cursor++) {
        const match = Math.floor(state.cursor / MARKETS_PER_MATCH) % MATCHES;
        state.book.putMarket(
          WIDE_SPORT,
          wideTotal(match, state.cursor % MARKETS_PER_MATCH, state.nextPrice++),
        );
      }
    });
    await sleep(POLL_MS * 1.5);
    state.window = null;
    return {
      selectionChanges: ticks * marketsPerTick * 2,
      delivered: window.delivered,
      bytesPerFrame: window.delivered ? Math.round(window.bytes / window.delivered) : null,
      selectionsPerSampledClient: window.sampledSelections / SAMPLED,
      // Below 1 when clients fell behind and the server merged updates (or the window cut a poll).
      sampledShareOfChanges: window.sampledSelections / SAMPLED / (ticks * marketsPerTick * 2),
    };
  },

  disconnect: () => dropClients(state),

  close: () => dropClients(state).then(() => state.book?.stop()),
};

// ---- The runner's side. ----

async function startProduct(db, book) {
  const port = await freePort();
  const server = spawnProduct('odds-passthrough', db, {
    ROLE: 'all',
    PORT: String(port),
    BOOK_UPSTREAM_URL: book.url,
    BOOK_POLL_MS: String(POLL_MS),
  });
  await listening(`http://127.0.0.1:${port}/`, 'odds-passthrough to listen');
  const key = await issueBenchKey(db.dataSource, { scopes: ['odds'], grants: { book: [book.sport] } });
  return {
    pid: server.pid,
    url: `ws://127.0.0.1:${port}/v1/book/data?key=${key}`,
    rest: { origin: `http://127.0.0.1:${port}`, key },
    stop: () => stopProcess(server),
  };
}

async function startBaseline(book, frameBytes) {
  const port = await freePort();
  const server = spawnBaseline('bare-odds-server.js', {
    PORT: String(port),
    UPSTREAM_URL: book.url,
    SPORT: String(book.sport),
    POLL_MS: String(POLL_MS),
    FRAME_BYTES: String(frameBytes),
  });
  await listening(`http://127.0.0.1:${port}/`, 'the bare odds server to listen');
  return { pid: server.pid, url: `ws://127.0.0.1:${port}/v1/book/data`, stop: () => stopProcess(server) };
}

async function runOddsFanOut({ quick }) {
  const { reps, seconds, warmup } = quick
    ? { reps: 3, seconds: 3, warmup: 1 }
    : { reps: 5, seconds: 15, warmup: 5 };
  // As the fixtures REST workload: the request path needs seconds of load to be compiled.
  const rest = quick ? { reps: 3, seconds: 2, warmup: 4 } : { reps: 5, seconds: 10, warmup: 5 };
  return withLoadProcess(__filename, 'odds', async (gen, db) => {
    const book = await gen.call('startBook');
    const { product, baseline } = await productThenBaseline(
      () => startProduct(db, book),
      (productSide) =>
        startBaseline(book, Math.round(median(productSide.windows.map((w) => w.bytesPerFrame ?? 0)))),
      async (server) => {
        // The server may still be loading the book: a socket subscribed before would get no snapshot.
        await gen.call('bookServed', { url: server.url });
        const watch = watchMachineLoad();
        const before = cpuMs(server.pid);
        await gen.call('subscribe', { url: server.url });
        const burst = { cpuMs: cpuMs(server.pid) - before, load: watch.stop() };
        await gen.call('drive', { seconds: warmup });
        const windows = await cpuWindows(gen, server.pid, reps, { seconds });
        await gen.call('disconnect');
        // The bare poller serves no REST: the product's answers are compared with bare Express here.
        const odds = server.rest
          ? await restWindows({
              ...server.rest,
              pathAndQuery: `/v1/book/odds?match=${book.matchId}`,
              check: (answer) => answer.selections?.length === MARKETS_PER_MATCH * 2,
              connections: REST_CONNECTIONS,
              ...rest,
            })
          : undefined;
        return { burst, windows, odds };
      },
    );
    return [
      windowsRow(
        {
          workload: `odds fan-out ${CLIENTS} subscribe_all × ${SELECTION_CHANGES_PER_SECOND} selection changes/s`,
          figure: 'server CPU per update frame delivered',
          unit: 'µs',
          key: 'cpuUsPerFrame',
          goal: ratioGoal('<=', 1.2),
        },
        product.windows,
        baseline.windows,
      ),
      windowsRow(
        {
          workload: `odds subscribe burst, ${CLIENTS} subscribe_all × ${MATCHES} matches`,
          figure: 'server CPU until every client holds every snapshot',
          unit: 'ms',
          key: 'cpuMs',
          goal: ratioGoal('<=', 1.2),
        },
        [product.burst],
        [baseline.burst],
      ),
      windowsRow(
        {
          workload: `REST GET /v1/book/odds?match= (${product.odds.bytes} B), ${REST_CONNECTIONS} connections`,
          figure: 'requests per second',
          unit: 'req/s',
          key: 'requestsPerSecond',
          goal: ratioGoal('>=', 0.8),
        },
        product.odds.product,
        product.odds.baseline,
      ),
    ];
  });
}

module.exports = { load, runOddsFanOut };
