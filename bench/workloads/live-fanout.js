// Workloads 1 and 5: the live-score stream of fixtures-live against a bare `ws` server
// (bare-live-server.js) fed by the same fake provider.
//
// Both run on the same server starts (idle memory first, on the fresh server).
//
// Live fan-out: SUBSCRIBERS WebSocket clients spread evenly over MATCHES live matches, each match
// changing twice a second (a new score each time, so every state is identifiable). Figures: the
// server's CPU time per update frame delivered, for fixtures-live ROLE=all (one process) and for a
// ROLE=api replica fed by a separate ROLE=ingest process (only the api process measured), and the
// p99 of provider send → client receipt.
//
// Idle memory: the server's RSS growth per subscribed socket while nothing changes, in steps of
// SUBSCRIBERS sockets.
//
// The fake provider and the clients live in the load process (bench/support/load-process.js).
'use strict';
const { rssKb, freePort, paced, percentile, sleep, until } = require('../support/bench-env');
const { issueBenchKey } = require('../support/bench-keys');
const { openClients, dropClients } = require('../support/clients');
const { LOAD_CORE } = require('../support/cores');
const { median, ratioGoal, windowsRow } = require('../support/figures');
const { withLoadProcess, productThenBaseline, cpuWindows } = require('../support/sides');
const { watchMachineLoad } = require('../support/machine-load');
const { spawnProduct, spawnBaseline, stopProcess, listening } = require('../support/services');

const SUBSCRIBERS = 1000;
const MATCHES = 100;
const STATES_PER_MATCH_PER_SECOND = 2;

// ---- The load process: the fake provider and the clients. ----

const state = { fake: null, goals: [], sockets: [], indexOf: new Map(), window: null, snapshots: 0 };

function push(i) {
  const { soccerState } = require('../../test/support/fake-livescores');
  state.goals[i] += 1;
  state.window?.pushedAt.set(`${i}:${state.goals[i]}`, performance.now());
  state.fake.push(`st-${i}`, soccerState({ score: { home: state.goals[i], away: 0 } }));
}

function onFrame(data) {
  const receivedAt = performance.now();
  const frame = JSON.parse(data.toString());
  if (frame.op === 'snapshot') state.snapshots += 1;
  const window = state.window;
  if (frame.op !== 'update' || !window) return;
  const sentAt = window.pushedAt.get(`${state.indexOf.get(frame.data.match_id)}:${frame.data.score.home}`);
  if (sentAt === undefined) return;
  window.latencies.push(receivedAt - sentAt);
  window.bytes += data.length;
}

const load = {
  async startProvider(matchCount) {
    const { FakeLivescores } = require('../../test/support/fake-livescores');
    const { serveLiveCatalog } = require('../support/live-catalog');
    state.fake = new FakeLivescores();
    serveLiveCatalog(state.fake, matchCount);
    await state.fake.start();
    state.goals = new Array(matchCount).fill(0);
    for (let i = 0; i < matchCount; i++) push(i);
    return state.fake.url;
  },

  liveClients: () => state.fake.liveClients,

  /** Opens `count` more sockets on `url`, subscribed round robin to `matchIds` (index i = st-i). */
  async subscribe({ url, matchIds, count }) {
    matchIds.forEach((id, i) => state.indexOf.set(id, i));
    const expected = state.snapshots + count;
    const first = state.sockets.length;
    const opened = await openClients({
      url,
      count,
      request: (i) => ({ action: 'subscribe', match_id: matchIds[(first + i) % matchIds.length] }),
      onFrame,
    });
    state.sockets.push(...opened);
    await until(() => state.snapshots >= expected, 'every subscriber to get its snapshot');
    return state.sockets.length;
  },

  /**
   * Pushes every match's next state STATES_PER_MATCH_PER_SECOND times a second for `seconds`,
   * then waits a second for the last frames; answers what the clients received.
   */
  async drive({ seconds }) {
    const matchCount = state.goals.length;
    const window = (state.window = { pushedAt: new Map(), latencies: [], bytes: 0 });
    const interval = 1000 / (matchCount * STATES_PER_MATCH_PER_SECOND);
    const pushes = await paced(seconds, interval, (n) => push(n % matchCount));
    await sleep(1000);
    state.window = null;
    const sorted = window.latencies.sort((a, b) => a - b);
    return {
      pushes,
      expected: (pushes * state.sockets.length) / matchCount,
      delivered: sorted.length,
      bytesPerFrame: sorted.length ? Math.round(window.bytes / sorted.length) : null,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: percentile(sorted, 100),
    };
  },

  disconnect: () => dropClients(state),

  close: () => dropClients(state).then(() => state.fake?.stop()),
};

// ---- The runner's side. ----

/** fixtures-live from dist on the server core: ROLE=all, or ROLE=api with a ROLE=ingest process on the load core. */
async function startProduct(db, gen, providerUrl, role) {
  const port = await freePort();
  const common = { FIXTURES_UPSTREAM_URL: providerUrl, FIXTURES_CATALOG_POLL_MS: '30000' };
  const processes = [];
  if (role === 'api') {
    processes.push(
      spawnProduct(
        'fixtures-live',
        db,
        { ...common, ROLE: 'ingest', PORT: String(await freePort()) },
        LOAD_CORE,
      ),
    );
  }
  const server = spawnProduct('fixtures-live', db, { ...common, ROLE: role, PORT: String(port) });
  processes.push(server);
  const stop = () => Promise.all(processes.map(stopProcess));
  try {
    await until(async () => {
      const [row] = await db.dataSource.query('SELECT count(*)::int AS n FROM fixtures.matches');
      return row.n === MATCHES;
    }, 'the catalog to be ingested');
    await until(async () => (await gen.call('liveClients')) > 0, 'the live feed to connect');
    await listening(`http://127.0.0.1:${port}/`, 'fixtures-live to listen');
    db.key ??= await issueBenchKey(db.dataSource, {
      scopes: ['live_scores_statistics'],
      fixturesSports: (await db.dataSource.query(`SELECT id FROM fixtures.sports`)).map((row) => row.id),
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { pid: server.pid, url: `ws://127.0.0.1:${port}/v1/stream?key=${db.key}`, stop };
}

async function matchIdsOf(db) {
  const rows = await db.dataSource.query('SELECT id, provider_id FROM fixtures.matches');
  const idOf = new Map(rows.map((row) => [row.provider_id, row.id]));
  return Array.from({ length: MATCHES }, (_, i) => idOf.get(`fx-${i}`));
}

/** The bare server on the server core, reading the same provider. */
async function startBaseline(gen, providerUrl, matchIds, frameBytes) {
  const port = await freePort();
  const liveBefore = await gen.call('liveClients');
  const server = spawnBaseline('bare-live-server.js', {
    PORT: String(port),
    UPSTREAM_URL: providerUrl,
    MATCH_IDS: JSON.stringify(Object.fromEntries(matchIds.map((id, i) => [`st-${i}`, id]))),
    FRAME_BYTES: String(frameBytes ?? 0),
  });
  await listening(`http://127.0.0.1:${port}/`, 'the bare live server to listen');
  await until(async () => (await gen.call('liveClients')) > liveBefore, 'the bare live server to connect');
  return { pid: server.pid, url: `ws://127.0.0.1:${port}/v1/stream`, stop: () => stopProcess(server) };
}

/** Windows of load against one server: a warm-up, then `reps` measured ones. */
async function fanOut(gen, server, matchIds, { reps, seconds, warmup }) {
  await gen.call('subscribe', { url: server.url, matchIds, count: SUBSCRIBERS });
  await gen.call('drive', { seconds: warmup });
  const windows = await cpuWindows(gen, server.pid, reps, { seconds });
  await gen.call('disconnect');
  return windows;
}

/** RSS growth per socket, KiB, over `steps` steps of SUBSCRIBERS idle subscribed sockets. */
async function idleSockets(gen, server, matchIds, { steps: count, settleMs }) {
  await sleep(settleMs);
  const steps = [];
  let before = rssKb(server.pid);
  for (let r = 0; r < count; r++) {
    const watch = watchMachineLoad();
    await gen.call('subscribe', { url: server.url, matchIds, count: SUBSCRIBERS });
    await sleep(settleMs);
    const after = rssKb(server.pid);
    steps.push({ kbPerSocket: (after - before) / SUBSCRIBERS, rssKb: after, load: watch.stop() });
    before = after;
  }
  await gen.call('disconnect');
  return steps;
}

/**
 * Runs `side(gen, server, matchIds)` on fixtures-live ROLE=all and then on the bare server, whose
 * update frames are padded to the product's mean frame size (`bytesPerFrame` of its fan-out).
 */
async function liveSides(gen, providerUrl, db, side) {
  let matchIds;
  return productThenBaseline(
    async () => {
      const product = await startProduct(db, gen, providerUrl, 'all');
      matchIds = await matchIdsOf(db);
      return product;
    },
    (product) => {
      const bytes = Math.round(median(product.fanOut.map((w) => w.bytesPerFrame ?? 0)));
      return startBaseline(gen, providerUrl, matchIds, bytes);
    },
    (server) => side(gen, server, matchIds),
  );
}

/**
 * Both workloads on the same server starts: idle memory first (on the fresh server), then the
 * fan-out; then the api replica's fan-out.
 */
async function runLive({ quick }) {
  const options = quick
    ? { reps: 3, seconds: 2, warmup: 1, steps: 2, settleMs: 1000 }
    : { reps: 5, seconds: 15, warmup: 5, steps: 3, settleMs: 5000 };
  return withLoadProcess(__filename, 'live', async (gen, db) => {
    const providerUrl = await gen.call('startProvider', MATCHES);
    const { product, baseline } = await liveSides(gen, providerUrl, db, async (g, server, ids) => ({
      memory: await idleSockets(g, server, ids, options),
      fanOut: await fanOut(g, server, ids, options),
    }));
    const api = await startProduct(db, gen, providerUrl, 'api');
    let replica;
    try {
      replica = await fanOut(gen, api, await matchIdsOf(db), options);
    } finally {
      await api.stop();
    }
    const workload = `live fan-out ${SUBSCRIBERS} subs × ${MATCHES} matches × ${STATES_PER_MATCH_PER_SECOND}/s`;
    const cpuFigure = { workload, unit: 'µs', key: 'cpuUsPerFrame' };
    return [
      windowsRow(
        { ...cpuFigure, figure: 'server CPU per frame delivered, ROLE=all', goal: ratioGoal('<=', 2.5) },
        product.fanOut,
        baseline.fanOut,
      ),
      windowsRow(
        {
          workload,
          figure: 'provider send → client p99, ROLE=all',
          unit: 'ms',
          key: 'p99',
          goal: { kind: 'absolute', op: '<=', value: 10 },
        },
        product.fanOut,
        baseline.fanOut,
      ),
      windowsRow(
        {
          workload: `idle subscribed sockets, ${options.steps} steps of ${SUBSCRIBERS}`,
          figure: 'server RSS growth per socket, ROLE=all',
          unit: 'KiB',
          key: 'kbPerSocket',
          goal: ratioGoal('<=', 1),
        },
        product.memory,
        baseline.memory,
      ),
      windowsRow(
        {
          ...cpuFigure,
          figure: 'api replica CPU per frame delivered (ingest apart; baseline: the ROLE=all windows)',
          goal: ratioGoal('<=', 1.5),
        },
        replica,
        baseline.fanOut,
      ),
    ];
  });
}

module.exports = { load, runLive };
