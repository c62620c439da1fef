// Workloads 1 and 5: the live-score stream of fixtures-live against a bare `ws` server
// (bare-live-server.js) fed by the same fake provider.
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
const { WebSocket: WsClient } = require('ws');
const { cpuMs, rssKb, freePort, percentile, sleep, until } = require('../support/bench-env');
const { issueBenchKey } = require('../support/bench-keys');
const { LOAD_CORE } = require('../support/cores');
const { median, windowsRow } = require('../support/figures');
const { startLoadProcess } = require('../support/load-process');
const { watchMachineLoad } = require('../support/machine-load');
const { spawnProduct, spawnBaseline, stopProcess, listening, withDatabase } = require('../support/services');

const SUBSCRIBERS = 1000;
const MATCHES = 100;
const STATES_PER_MATCH_PER_SECOND = 2;
const CONNECT_BATCH = 50;

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

function openSocket(url, matchId) {
  const socket = new WsClient(url);
  state.sockets.push(socket);
  socket.on('message', onFrame);
  socket.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      socket.send(JSON.stringify({ action: 'subscribe', match_id: matchId }));
      resolve();
    });
    socket.once('error', reject);
  });
}

const load = {
  async startProvider(matchCount) {
    const { FakeLivescores } = require('../../test/support/fake-livescores');
    const { liveCatalog } = require('../support/live-catalog');
    state.fake = new FakeLivescores();
    state.fake.setCatalog(liveCatalog(matchCount));
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
    for (let s = 0; s < count; s += CONNECT_BATCH) {
      const batch = [];
      for (let b = s; b < Math.min(count, s + CONNECT_BATCH); b++) {
        batch.push(openSocket(url, matchIds[(first + b) % matchIds.length]));
      }
      await Promise.all(batch);
    }
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
    const started = performance.now();
    let pushes = 0;
    while (performance.now() - started < seconds * 1000) {
      const due = Math.floor((performance.now() - started) / interval);
      while (pushes < due) push(pushes++ % matchCount);
      await sleep(Math.max(1, interval));
    }
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

  async disconnect() {
    const closing = state.sockets.map((socket) => new Promise((resolve) => socket.once('close', resolve)));
    for (const socket of state.sockets) socket.terminate();
    await Promise.all(closing);
    state.sockets = [];
    state.snapshots = 0;
  },

  async close() {
    await load.disconnect();
    await state.fake?.stop();
  },
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
  const windows = [];
  for (let r = 0; r < reps; r++) {
    const watch = watchMachineLoad();
    const before = cpuMs(server.pid);
    const received = await gen.call('drive', { seconds });
    const cpu = cpuMs(server.pid) - before;
    windows.push({
      ...received,
      cpuMs: cpu,
      cpuUsPerFrame: (cpu * 1000) / received.delivered,
      load: watch.stop(),
    });
  }
  await gen.call('disconnect');
  return windows;
}

/** RSS growth per socket, KiB, over `reps` steps of SUBSCRIBERS idle subscribed sockets. */
async function idleSockets(gen, server, matchIds, { reps, settleMs }) {
  await sleep(settleMs);
  const steps = [];
  let before = rssKb(server.pid);
  for (let r = 0; r < reps; r++) {
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

/** Runs `fn(gen, providerUrl, db)` with a database, the load process and its provider. */
function withLiveProvider(fn) {
  return withDatabase('live', async (db) => {
    const gen = startLoadProcess(__filename);
    try {
      return await fn(gen, await gen.call('startProvider', MATCHES), db);
    } finally {
      await gen.stop();
    }
  });
}

/**
 * Measures `side(gen, server, matchIds)` on the product (`role`) and then on the bare server,
 * whose update frames are padded to the product's mean frame size when the side measured one.
 */
async function productThenBaseline(gen, providerUrl, db, role, side) {
  const product = await startProduct(db, gen, providerUrl, role);
  const matchIds = await matchIdsOf(db);
  let productResult;
  try {
    productResult = await side(gen, product, matchIds);
  } finally {
    await product.stop();
  }
  const frameBytes = median(productResult.map((w) => w.bytesPerFrame ?? 0));
  const baseline = await startBaseline(gen, providerUrl, matchIds, Math.round(frameBytes));
  try {
    return { product: productResult, baseline: await side(gen, baseline, matchIds) };
  } finally {
    await baseline.stop();
  }
}

async function runFanOut({ quick, roles }) {
  const options = quick ? { reps: 3, seconds: 4, warmup: 2 } : { reps: 5, seconds: 15, warmup: 5 };
  return withLiveProvider(async (gen, providerUrl, db) => {
    const rows = [];
    const workload = `live fan-out ${SUBSCRIBERS} subs × ${MATCHES} matches × ${STATES_PER_MATCH_PER_SECOND}/s`;
    const { product, baseline } = await productThenBaseline(gen, providerUrl, db, roles[0], (g, s, ids) =>
      fanOut(g, s, ids, options),
    );
    const cpuFigure = { workload, unit: 'µs', key: 'cpuUsPerFrame' };
    rows.push(
      windowsRow(
        {
          ...cpuFigure,
          figure: 'server CPU per frame delivered, ROLE=all',
          goal: { kind: 'ratio', op: '<=', value: 2.5 },
        },
        product,
        baseline,
      ),
      windowsRow(
        {
          workload,
          figure: 'provider send → client p99, ROLE=all',
          unit: 'ms',
          key: 'p99',
          goal: { kind: 'absolute', op: '<=', value: 10 },
        },
        product,
        baseline,
      ),
    );
    if (roles.includes('api')) {
      const api = await startProduct(db, gen, providerUrl, 'api');
      let replica;
      try {
        replica = await fanOut(gen, api, await matchIdsOf(db), options);
      } finally {
        await api.stop();
      }
      const figure = 'api replica CPU per frame delivered (ingest apart; baseline: the ROLE=all windows)';
      rows.push(
        windowsRow(
          { ...cpuFigure, figure, goal: { kind: 'ratio', op: '<=', value: 1.5 } },
          replica,
          baseline,
        ),
      );
    }
    return rows;
  });
}

async function runIdleMemory({ quick }) {
  const options = { reps: 3, settleMs: quick ? 2000 : 5000 };
  return withLiveProvider(async (gen, providerUrl, db) => {
    const { product, baseline } = await productThenBaseline(gen, providerUrl, db, 'all', (g, s, ids) =>
      idleSockets(g, s, ids, options),
    );
    return [
      windowsRow(
        {
          workload: `idle subscribed sockets, ${options.reps} steps of ${SUBSCRIBERS}`,
          figure: 'server RSS growth per socket',
          unit: 'KiB',
          key: 'kbPerSocket',
          goal: { kind: 'ratio', op: '<=', value: 1 },
        },
        product,
        baseline,
      ),
    ];
  });
}

module.exports = { load, runFanOut, runIdleMemory };
