// Memory of one fixtures-live process (ROLE=all) under a busy Saturday's live load: 300 soccer
// matches, each sending its whole state twice a second, for 10 minutes. The budget: memory stays
// flat, no growth trend. Run from the repository root:
//
//   npm run bench -- --only=fixtures-memory   (node bench/probes/fixtures-memory.js [duration-seconds=600])
//
// Settings (environment): DURATION (seconds measured after the warm-up, default 600; the argument
// wins), WARMUP (60), SAMPLE_SECONDS (10), MATCHES (300), LEAGUES (6), STATES_PER_SECOND (2 per
// match), SUBSCRIBERS (4 stream clients), MATCHES_PER_SUBSCRIBER (25), THRESHOLD (0.05: the largest
// projected growth over the window, as a share of the mean, still called flat), BENCH_PG_ADMIN_URL
// (postgres://postgres@127.0.0.1:5432/postgres), NATS_URL (nats://127.0.0.1:4222).
//
// It builds the bundles when stale, creates and migrates a throwaway database, serves the
// livescores provider API itself (catalog over HTTP, `/live` over WebSocket), starts the built
// app as a child process with --trace-gc, issues a key with the keys CLI and attaches stream
// subscribers. It reads the child's VmRSS from /proc every second, its /metrics (heap used, event
// loop lag) every SAMPLE_SECONDS, and the heap left after every full collection from the trace.
// At the end it checks the load really went through (NATS frames the app published, seq stored
// per match, stream frames received, a REST read), fits a line to what was measured after the
// warm-up and prints a verdict; the exit code is 0 only when memory is flat and the load went
// through. Child processes and the database are removed on exit, on failure and on Ctrl-C.
'use strict';

const path = require('node:path');
const http = require('node:http');
const os = require('node:os');
const { readFileSync } = require('node:fs');
const { spawn, spawnSync } = require('node:child_process');
const { Client } = require('pg');
const { WebSocket: WsClient, WebSocketServer } = require('ws');
const { connect: connectNats } = require('nats');
const { adminUrl, databaseUrl, freePort } = require('../support/bench-env');
const { UNLIMITED_STREAMS } = require('../support/bench-keys');
const { reportFigures } = require('../support/probe-figures');

const root = path.join(__dirname, '..', '..');
const settings = {
  duration: Number(process.argv[2] ?? process.env.DURATION ?? 600),
  warmup: Number(process.env.WARMUP ?? 60),
  sampleSeconds: Number(process.env.SAMPLE_SECONDS ?? 10),
  matches: Number(process.env.MATCHES ?? 300),
  leagues: Number(process.env.LEAGUES ?? 6),
  statesPerSecond: Number(process.env.STATES_PER_SECOND ?? 2),
  subscribers: Number(process.env.SUBSCRIBERS ?? 4),
  matchesPerSubscriber: Number(process.env.MATCHES_PER_SUBSCRIBER ?? 25),
  threshold: Number(process.env.THRESHOLD ?? 0.05),
};
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const MB = 1024 * 1024;

for (const [name, value] of Object.entries(settings)) {
  if (!Number.isFinite(value) || value < 0) fail(`invalid setting ${name}: ${value}`);
}
if (settings.statesPerSecond <= 0 || settings.matches < 1 || settings.leagues < 1) {
  fail('MATCHES, LEAGUES and STATES_PER_SECOND must be positive');
}

function fail(message) {
  process.stderr.write(`fixtures-memory: ${message}\n`);
  process.exit(2);
}

function log(message) {
  process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

// --- Ctrl-C and cleanup ------------------------------------------------------------------------

const aborted = new AbortController();
const children = new Set();
/** Set once the run is over, so the closes and exits that follow are not reported as faults. */
let closing = false;

function abortable(ms) {
  return new Promise((resolve, reject) => {
    if (aborted.signal.aborted) return reject(aborted.signal.reason);
    const timer = setTimeout(() => {
      aborted.signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted.signal.reason);
    };
    aborted.signal.addEventListener('abort', onAbort, { once: true });
  });
}

async function waitUntil(what, timeoutMs, check) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await abortable(250);
  }
}

let interrupts = 0;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    interrupts++;
    if (interrupts === 1) {
      log(`${signal}: stopping and cleaning up (again to force)`);
      aborted.abort(new Error(`interrupted by ${signal}`));
      return;
    }
    for (const child of children) child.kill('SIGKILL');
    process.exit(130);
  });
}

/** SIGTERM, then SIGKILL if the child is still there after `graceMs`. */
function stopChild(child, graceMs = 12_000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

// --- PostgreSQL -----------------------------------------------------------------------------------

async function query(connectionString, sql, params = []) {
  const client = new Client({ connectionString });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

// --- the provider: catalog and live states ------------------------------------------------------

/** Small deterministic generator, so two runs send the same matches and the same events. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PLAYERS = ['Saka', 'Palmer', 'Haaland', 'Salah', 'Isak', 'Watkins', 'Son', 'Rice', 'Mbeumo', 'Gordon'];
const PHASES = [1001, 1002, 1003, 1004, 1005, 1006, 1007, 1009, 1014];
/** A real match has a few dozen incidents; the list stops growing here. */
const MAX_INCIDENTS = 40;
const FORM = ['WWDLW', 'LDWWL', 'DDWLW', 'WLLDW'];

function isoSeconds(ms) {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * One soccer match on the provider's side. Its clock runs in real time from a kick-off anchor,
 * the ball moves on every state, phases change every few states and incidents (goals, corners,
 * cards, substitutions) arrive about once every two match minutes, so each state is a real
 * change and the stored history of a match grows only as a real match's does.
 */
class SoccerMatch {
  constructor(index, leagueName, now) {
    this.rand = random(index + 1);
    this.statId = `st-${index}`;
    this.leagueName = leagueName;
    this.seq = 1000 + index;
    const secondHalf = index % 2 === 1;
    const minute = secondHalf ? 46 + ((index * 11) % 30) : 1 + ((index * 7) % 30);
    this.period = secondHalf ? '2H' : '1H';
    this.status = secondHalf ? '2h' : '1h';
    // Whole seconds, so `clock.at` is an exact RFC 3339 second.
    this.anchor = Math.floor(now / 1000) * 1000 - minute * 60_000 - Math.floor(this.rand() * 60) * 1000;
    this.score = { home: 0, away: 0 };
    this.stats = {
      shots_on_target: [0, 0],
      shots_off_target: [0, 0],
      attacks: [0, 0],
      dangerous_attacks: [0, 0],
      possession: [50, 50],
      corners: [0, 0],
      yellow_cards: [0, 0],
      red_cards: [0, 0],
    };
    this.owned = [1, 1];
    this.incidents = [];
    this.xg = [0, 0];
    this.pressure = [];
    this.phase = { vc: 1001, team: 'home' };
    this.ball = { x: 0.5, y: 0.5, vc: 1001 };
    this.statesSinceRepeat = 0;
    this.last = undefined;
    // What came before the bench started, four states a minute with as many incidents per minute.
    for (let m = 0; m < minute * 4; m++) this.play(now - (minute * 4 - m) * 15_000, 1 / 8);
  }

  side() {
    return this.rand() < 0.5 ? 'home' : 'away';
  }

  clockAt(now) {
    const elapsed = Math.max(0, Math.floor((now - this.anchor) / 1000));
    return {
      minute: Math.floor(elapsed / 60),
      second: elapsed % 60,
      at: isoSeconds(this.anchor + elapsed * 1000),
    };
  }

  /** Moves the match on by one state; at two states a second, 1/240 is one incident per two minutes. */
  play(now, incidentChance = 1 / 240) {
    const clock = this.clockAt(now);
    const team = this.rand() < 0.5 ? 0 : 1;
    this.owned[team]++;
    if (this.rand() < 0.15) {
      this.phase = {
        vc: PHASES[Math.floor(this.rand() * PHASES.length)],
        team: team === 0 ? 'home' : 'away',
      };
      if (this.phase.vc === 1002) this.stats.attacks[team]++;
      if (this.phase.vc === 1003) this.stats.dangerous_attacks[team]++;
      if (this.phase.vc === 1004) {
        this.stats[this.rand() < 0.4 ? 'shots_on_target' : 'shots_off_target'][team]++;
        this.xg[team] = Math.round((this.xg[team] + this.rand() * 0.3) * 100) / 100;
      }
    }
    const home = Math.round((this.owned[0] / (this.owned[0] + this.owned[1])) * 100);
    this.stats.possession = [home, 100 - home];
    // One pressure value per match minute, as the provider's per-minute series.
    while (this.pressure.length <= Math.min(clock.minute, 120)) {
      this.pressure.push(Math.round((this.rand() * 2 - 1) * 100) / 100);
    }
    this.ball = {
      x: Math.round(Math.min(1, Math.max(0, this.ball.x + (this.rand() - 0.5) * 0.1)) * 1000) / 1000,
      y: Math.round(Math.min(1, Math.max(0, this.ball.y + (this.rand() - 0.5) * 0.1)) * 1000) / 1000,
      vc: this.phase.vc,
    };
    if (this.incidents.length < MAX_INCIDENTS && this.rand() < incidentChance)
      this.incident(clock.minute, team);
  }

  incident(minute, team) {
    const side = team === 0 ? 'home' : 'away';
    const roll = this.rand();
    const player = PLAYERS[Math.floor(this.rand() * PLAYERS.length)];
    const item = { vc: 2002, minute: String(minute), team: side };
    if (roll < 0.25) {
      this.score[side]++;
      Object.assign(item, { vc: 2001, player, score: `${this.score.home}-${this.score.away}` });
      this.phase = { vc: 1011, team: side };
      this.ball = { x: team === 0 ? 0.97 : 0.03, y: 0.5, vc: 1011, minute: String(minute), detail: player };
    } else if (roll < 0.6) {
      this.stats.corners[team]++;
    } else if (roll < 0.85) {
      this.stats.yellow_cards[team]++;
      Object.assign(item, { vc: 2003, player });
    } else {
      Object.assign(item, { vc: 2006, player });
    }
    this.incidents.push(item);
  }

  state(now) {
    const { minute, second, at } = this.clockAt(now);
    return {
      sport: 'soccer',
      competition: this.leagueName,
      status: this.status,
      clock: { minute, second, period: this.period, running: true, added: 0, at },
      score: { ...this.score },
      phase: { ...this.phase },
      stats: Object.fromEntries(Object.entries(this.stats).map(([key, pair]) => [key, [...pair]])),
      incidents: this.incidents.map((incident) => ({ ...incident })),
      ball: { ...this.ball },
      extras: { xg: [...this.xg], pressure: [...this.pressure], form: [FORM[0], FORM[1]] },
    };
  }

  /**
   * The next message. Now and then the provider sends the same state again with a new seq
   * (the contract says so); the app must drop those, so they are counted apart.
   */
  next(now) {
    this.seq++;
    const repeat = this.last !== undefined && ++this.statesSinceRepeat >= 50;
    if (repeat) this.statesSinceRepeat = 0;
    else {
      this.play(now);
      this.last = this.state(now);
    }
    return { repeat, envelope: this.envelope(now) };
  }

  envelope(now) {
    return {
      stat_id: this.statId,
      seq: this.seq,
      sent_at: isoSeconds(now),
      state: this.last ?? this.state(now),
    };
  }
}

class Provider {
  constructor() {
    const now = Date.now();
    this.sports = [{ id: 'sp-soccer', key: 'soccer', name: 'Soccer' }];
    this.leagues = Array.from({ length: settings.leagues }, (_, l) => ({
      id: `lg-${l}`,
      name: `Bench League ${l + 1}`,
    }));
    this.teams = new Map(this.leagues.map((league) => [league.id, []]));
    this.matches = new Map(this.leagues.map((league) => [league.id, []]));
    this.live = [];
    for (let i = 0; i < settings.matches; i++) {
      const league = this.leagues[i % settings.leagues];
      const teams = this.teams.get(league.id);
      const home = { id: `tm-${i}-h`, name: `Home ${i}` };
      const away = { id: `tm-${i}-a`, name: `Away ${i}` };
      teams.push(home, away);
      const match = new SoccerMatch(i, league.name, now);
      this.live.push(match);
      this.matches.get(league.id).push({
        id: `fx-${i}`,
        stat_id: match.statId,
        live_id: `lv-${i}`,
        home_team_id: home.id,
        away_team_id: away.id,
        start_time: isoSeconds(match.anchor),
        status: 'in_play',
        format: null,
      });
    }
    this.stats = { sent: 0, changed: 0, repeats: 0, onConnect: 0, connects: 0, maxBufferedBytes: 0 };
    this.catalogRequests = 0;
    this.sockets = new Set();
    this.wss = new WebSocketServer({ noServer: true });
    this.server = http.createServer((req, res) => this.answer(req, res));
    this.server.on('upgrade', (req, socket, head) => {
      if (new URL(req.url, 'http://x').pathname !== '/live') return socket.destroy();
      this.wss.handleUpgrade(req, socket, head, (ws) => this.attach(ws));
    });
  }

  listen() {
    return new Promise((resolve) =>
      this.server.listen(0, '127.0.0.1', () => resolve(this.server.address().port)),
    );
  }

  answer(req, res) {
    const parts = new URL(req.url, 'http://x').pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const send = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    this.catalogRequests++;
    const [a, id, b] = parts;
    if (parts.length === 1 && a === 'sports') return send(200, this.sports);
    if (parts.length === 3 && a === 'sports' && b === 'leagues') {
      return send(200, id === 'sp-soccer' ? this.leagues : []);
    }
    if (parts.length === 3 && a === 'leagues' && b === 'teams' && this.teams.has(id)) {
      return send(200, this.teams.get(id));
    }
    if (parts.length === 3 && a === 'leagues' && b === 'matches' && this.matches.has(id)) {
      return send(200, this.matches.get(id));
    }
    if (parts.length === 3 && a === 'teams' && b === 'kit') {
      return send(200, { url: `https://cdn.example/kits/${encodeURIComponent(id)}.png` });
    }
    if (parts.length === 2 && a === 'live') {
      const match = this.live.find((m) => m.statId === id);
      return match ? send(200, match.envelope(Date.now())) : send(404, { error: 'no live state' });
    }
    return send(404, { error: 'not found' });
  }

  attach(ws) {
    this.stats.connects++;
    this.sockets.add(ws);
    ws.on('close', () => this.sockets.delete(ws));
    ws.on('error', () => this.sockets.delete(ws));
    const now = Date.now();
    for (const match of this.live) {
      ws.send(JSON.stringify(match.envelope(now)));
      this.stats.onConnect++;
    }
  }

  /**
   * Every match sends `statesPerSecond` states a second, spread evenly: the matches are split
   * into slots and one slot sends per tick. Ticks are counted from the start, so a late timer
   * catches up instead of lowering the rate.
   */
  start() {
    const slots = 10;
    const tickMs = 1000 / (settings.statesPerSecond * slots);
    const started = Date.now();
    let ticks = 0;
    this.timer = setInterval(() => {
      const due = Math.floor((Date.now() - started) / tickMs);
      for (; ticks < due; ticks++) this.tick(ticks % slots, slots);
    }, tickMs);
  }

  tick(slot, slots) {
    const now = Date.now();
    for (let i = slot; i < this.live.length; i += slots) {
      const { repeat, envelope } = this.live[i].next(now);
      if (this.sockets.size === 0) continue;
      const text = JSON.stringify(envelope);
      for (const ws of this.sockets) {
        ws.send(text);
        this.stats.maxBufferedBytes = Math.max(this.stats.maxBufferedBytes, ws.bufferedAmount);
      }
      this.stats.sent++;
      if (repeat) this.stats.repeats++;
      else this.stats.changed++;
    }
  }

  lastSeq(statId) {
    return this.live.find((m) => m.statId === statId)?.seq;
  }

  async close() {
    clearInterval(this.timer);
    for (const ws of this.sockets) ws.terminate();
    this.wss.close();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(() => resolve()));
  }
}

// --- the app and what it tells --------------------------------------------------------------------

/** A line of V8's --trace-gc after a full collection: heap before -> after, in MiB. */
const MARK_COMPACT =
  /^\[\d+:0x[0-9a-f]+\]\s+(\d+) ms: Mark-Compact(?: \(reduce\))? [\d.]+ \([\d.]+\) -> ([\d.]+) \(/;
const TRACE_GC = /^\[\d+:0x[0-9a-f]+\]\s+\d+ ms: /;

/**
 * What the app writes: the heap left after each full collection (from --trace-gc), and the
 * warnings and errors it logged, grouped by message with the numbers taken out.
 */
class AppOutput {
  constructor() {
    this.groups = new Map();
    this.tail = [];
    /** { t: seconds since the process started, v: bytes } */
    this.heapAfterGc = [];
  }

  /** A reader of one of the child's streams, with its own partial line. */
  reader() {
    let buffer = '';
    return (chunk) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop();
      for (const line of lines) this.line(line);
    };
  }

  line(line) {
    if (line.trim() === '') return;
    const gc = MARK_COMPACT.exec(line);
    if (gc) this.heapAfterGc.push({ t: Number(gc[1]) / 1000, v: Number(gc[2]) * MB });
    if (TRACE_GC.test(line)) return;
    this.tail.push(line.slice(0, 500));
    if (this.tail.length > 20) this.tail.shift();
    let level = 50;
    let message = line;
    try {
      const entry = JSON.parse(line);
      level = typeof entry.level === 'number' ? entry.level : 50;
      message = String(entry.msg ?? entry.message ?? line);
    } catch {
      // not pino's JSON (a crash trace, say): count it as an error
    }
    if (level < 40) return;
    const key = `${level >= 50 ? 'error' : 'warn'}: ${message.replace(/\d+/g, 'N').slice(0, 200)}`;
    this.groups.set(key, (this.groups.get(key) ?? 0) + 1);
  }

  get count() {
    let total = 0;
    for (const n of this.groups.values()) total += n;
    return total;
  }
}

function startApp(env, output) {
  // --trace-gc prints the heap left after every collection: the live set, without the sawtooth.
  const child = spawn(process.execPath, ['--trace-gc', path.join(root, 'dist/apps/fixtures-live/main.js')], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  child.stdout.setEncoding('utf8').on('data', output.reader());
  child.stderr.setEncoding('utf8').on('data', output.reader());
  return child;
}

/** Runs a built CLI (migrations, keys) to completion; stdout is its JSON answer. */
function runCli(script, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, script), ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      children.delete(child);
      if (code === 0) resolve(out);
      else reject(new Error(`${script} ${args[0] ?? ''} exited with ${code}: ${out}${err}`.trim()));
    });
  });
}

function rssBytes(pid) {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
}

/** User + system CPU seconds the process has used so far. */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function metrics(baseUrl) {
  const response = await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(5000) });
  if (!response.ok) throw new Error(`/metrics answered ${response.status}`);
  const text = await response.text();
  const read = (name) => {
    const match = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(text);
    return match ? Number(match[1]) : NaN;
  };
  return {
    heapUsed: read('nodejs_heap_size_used_bytes'),
    heapTotal: read('nodejs_heap_size_total_bytes'),
    rss: read('process_resident_memory_bytes'),
    external: read('nodejs_external_memory_bytes'),
    lagP99: read('nodejs_eventloop_lag_p99_seconds'),
  };
}

/** Stream clients, each subscribed to a few matches, counting what arrives. */
function subscribe(wsUrl, matchIds, counts) {
  return new Promise((resolve, reject) => {
    const ws = new WsClient(wsUrl);
    ws.on('unexpected-response', (_req, res) =>
      reject(new Error(`stream handshake refused: ${res.statusCode}`)),
    );
    ws.on('error', (error) => {
      counts.socketErrors++;
      reject(error);
    });
    ws.on('open', () => {
      for (const id of matchIds) ws.send(JSON.stringify({ action: 'subscribe', match_id: id }));
      resolve(ws);
    });
    ws.on('message', (data) => {
      let frame;
      try {
        frame = JSON.parse(String(data));
      } catch {
        counts.unreadable++;
        return;
      }
      if (frame.op === 'snapshot') counts.snapshots++;
      else if (frame.op === 'update') counts.updates++;
      else if (frame.op === 'error') {
        counts.errors++;
        counts.lastError = frame.error;
      } else counts.other++;
    });
    ws.on('close', (code) => {
      if (!closing) counts.closes.push(code);
    });
  });
}

// --- figures --------------------------------------------------------------------------------------

/** Least-squares line through (x, y): slope, intercept and R². */
function fitLine(xs, ys) {
  const n = xs.length;
  const mx = xs.reduce((s, x) => s + x, 0) / n;
  const my = ys.reduce((s, y) => s + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  const slope = sxx === 0 ? 0 : sxy / sxx;
  return {
    slope,
    intercept: my - slope * mx,
    mean: my,
    r2: syy === 0 || sxx === 0 ? 0 : (sxy * sxy) / (sxx * syy),
  };
}

/** Two-sided 95% quantiles of Student's t for 1 to 30 degrees of freedom (1.96 beyond). */
const T95 = [
  12.71, 4.3, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23, 2.2, 2.18, 2.16, 2.14, 2.13, 2.12, 2.11, 2.1,
  2.09, 2.09, 2.08, 2.07, 2.07, 2.06, 2.06, 2.06, 2.05, 2.05, 2.05, 2.04,
];

/** Stretch length for the noise estimate: a minute, shorter on short runs so there are six or more. */
function stretchSeconds() {
  return Math.max(settings.sampleSeconds, Math.min(60, settings.duration / 6));
}

/**
 * 95% interval of the projected growth, from the line through the means of `seconds`-long
 * stretches. Consecutive samples ride the same collector cycle (20 to 30 s here), so their own
 * residuals would understate the noise; means of stretches longer than a cycle are close to
 * independent.
 */
function growthInterval(points, seconds) {
  const buckets = new Map();
  for (const p of points) {
    const key = Math.floor((p.t - settings.warmup) / seconds);
    const bucket = buckets.get(key) ?? { t: 0, v: 0, n: 0 };
    bucket.t += p.t;
    bucket.v += p.v;
    bucket.n++;
    buckets.set(key, bucket);
  }
  const xs = [...buckets.values()].map((b) => b.t / b.n);
  const ys = [...buckets.values()].map((b) => b.v / b.n);
  if (xs.length < 4) return undefined;
  const line = fitLine(xs, ys);
  const mx = xs.reduce((sum, x) => sum + x, 0) / xs.length;
  let sse = 0;
  let sxx = 0;
  for (let i = 0; i < xs.length; i++) {
    sse += (ys[i] - line.intercept - line.slope * xs[i]) ** 2;
    sxx += (xs[i] - mx) ** 2;
  }
  const df = xs.length - 2;
  const margin = (T95[df - 1] ?? 1.96) * Math.sqrt(sse / df / sxx);
  return {
    stretches: xs.length,
    low: (line.slope - margin) * settings.duration,
    high: (line.slope + margin) * settings.duration,
  };
}

/**
 * A line fitted to (t, v) points, its growth projected over the whole measured window, and what
 * that says: FLAT below the threshold; GROWING above it when the interval excludes no growth;
 * WITHIN NOISE above it when the run cannot tell growth from the collector's swings.
 */
function trend(name, unit, points, decides = true) {
  if (points.length < 3) return { name, unit, samples: points.length, verdict: 'not enough points' };
  const ys = points.map((p) => p.v);
  const line = fitLine(
    points.map((p) => p.t),
    ys,
  );
  const growth = line.slope * settings.duration;
  const share = growth / line.mean;
  const interval = growthInterval(points, stretchSeconds());
  let state = 'FLAT';
  if (share >= settings.threshold) state = interval && interval.low <= 0 ? 'WITHIN NOISE' : 'GROWING';
  return {
    name,
    unit,
    samples: points.length,
    start: ys[0],
    end: ys[ys.length - 1],
    min: Math.min(...ys),
    max: Math.max(...ys),
    mean: line.mean,
    slopeMbPerMinute: (line.slope * 60) / MB,
    projectedGrowth: growth,
    share,
    r2: line.r2,
    interval,
    state,
    decides,
  };
}

function mb(bytes) {
  return `${(bytes / MB).toFixed(1)} MB`;
}

function signedPercent(share) {
  return `${share >= 0 ? '+' : ''}${(share * 100).toFixed(1)}%`;
}

function signedMb(bytes) {
  return `${bytes >= 0 ? '+' : ''}${mb(bytes)}`;
}

function describeTrend(t) {
  if (t.verdict) return `  ${t.name}: ${t.verdict} (${t.samples} ${t.unit})`;
  return [
    `  ${t.name}: ${t.samples} ${t.unit}, start ${mb(t.start)}, end ${mb(t.end)}, min ${mb(t.min)}, max ${mb(t.max)}, mean ${mb(t.mean)}`,
    `    slope ${t.slopeMbPerMinute >= 0 ? '+' : ''}${t.slopeMbPerMinute.toFixed(3)} MB/min (R² ${t.r2.toFixed(2)}),` +
      ` projected over the window ${signedMb(t.projectedGrowth)}` +
      ` = ${(t.share * 100).toFixed(1)}% of the mean` +
      (t.decides ? ` -> ${t.state}` : ' (for reference)'),
    t.interval
      ? `    95% interval of the projected growth ${signedMb(t.interval.low)} to ${signedMb(t.interval.high)}` +
        ` (${signedPercent(t.interval.low / t.mean)} to ${signedPercent(t.interval.high / t.mean)}),` +
        ` from the means of ${t.interval.stretches} stretches of ${stretchSeconds()} s`
      : '    too few stretches for an interval',
  ].join('\n');
}

// --- the run --------------------------------------------------------------------------------------

async function main() {
  log('building the bundles when stale (fixtures-live, migrate, keys)');
  const build = spawnSync(process.execPath, ['scripts/ensure-build.js', 'fixtures-live', 'migrate', 'keys'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (build.status !== 0) throw new Error('building failed');

  const database = `bench_fxmem_${Date.now().toString(36)}`;
  const url = databaseUrl(database);
  const provider = new Provider();
  const appOutput = new AppOutput();
  const streamCounts = {
    snapshots: 0,
    updates: 0,
    errors: 0,
    other: 0,
    unreadable: 0,
    socketErrors: 0,
    closes: [],
  };
  const natsFrames = new Map();
  const sockets = [];
  let app;
  let nats;
  let created = false;
  try {
    await query(adminUrl, `CREATE DATABASE ${database}`);
    created = true;
    log(`database ${database}; migrating`);
    await runCli('dist/libs/database/migrate/main.js', [], { DATABASE_URL: url });

    const providerPort = await provider.listen();
    provider.start();
    log(`provider on :${providerPort}: ${settings.matches} soccer matches in ${settings.leagues} leagues`);

    // Counts every frame the app publishes, from before it starts: that is what it ingested.
    nats = await connectNats({ servers: natsUrl.split(','), name: 'bench-fixtures-memory' });
    const subscription = nats.subscribe(`${database}.fixtures.live.>`);
    void (async () => {
      for await (const message of subscription) {
        const id = Number(message.subject.slice(message.subject.lastIndexOf('.') + 1));
        natsFrames.set(id, (natsFrames.get(id) ?? 0) + 1);
      }
    })();
    await nats.flush();

    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const env = {
      DATABASE_URL: url,
      NATS_URL: natsUrl,
      NATS_SUBJECT_PREFIX: database,
      FIXTURES_UPSTREAM_URL: `http://127.0.0.1:${providerPort}`,
      ROLE: 'all',
      PORT: String(port),
      MIGRATIONS_RUN: 'false',
      LOG_LEVEL: 'warn',
      ...UNLIMITED_STREAMS,
    };
    app = startApp(env, appOutput);
    const started = Date.now();
    const exited = new Promise((resolve) => app.once('exit', (code, signal) => resolve({ code, signal })));
    void exited.then(({ code, signal }) => {
      if (!closing)
        aborted.abort(new Error(`fixtures-live exited (code ${code}, signal ${signal}) during the run`));
    });
    log(`fixtures-live pid ${app.pid} on :${port}`);
    await waitUntil(
      'fixtures-live ready',
      60_000,
      async () => (await fetch(`${baseUrl}/v1/health/ready`)).ok,
    );
    await waitUntil('the catalog in PostgreSQL', 60_000, async () => {
      const [row] = await query(url, `SELECT count(*)::int AS n FROM fixtures.matches`);
      return row.n >= settings.matches;
    });

    const account = JSON.parse(
      await runCli(
        'dist/libs/auth/keys/main.js',
        ['account:create', '--name', 'bench', '--sports', 'soccer'],
        env,
      ),
    );
    const issued = JSON.parse(
      await runCli(
        'dist/libs/auth/keys/main.js',
        // The bench measures memory under load, not the limits: a rate no bench reaches.
        [
          'key:issue',
          '--account',
          account.account,
          '--scopes',
          'fixtures,live_scores_statistics',
          '--rate',
          '1000000/1000000',
        ],
        env,
      ),
    );
    const matchRows = await query(url, `SELECT id, stat_id FROM fixtures.matches ORDER BY id`);
    for (let s = 0; s < settings.subscribers; s++) {
      const ids = matchRows
        .slice(s * settings.matchesPerSubscriber, (s + 1) * settings.matchesPerSubscriber)
        .map((r) => r.id);
      if (ids.length === 0) break;
      sockets.push(await subscribe(`ws://127.0.0.1:${port}/v1/stream?key=${issued.key}`, ids, streamCounts));
    }
    log(`${sockets.length} stream subscribers attached; sampling every ${settings.sampleSeconds} s`);

    const loadBefore = os.loadavg()[0];
    const cpuStart = cpuSeconds(app.pid);
    const cpuWallStart = Date.now();
    // VmRSS every second (reading /proc costs the app nothing), /metrics every SAMPLE_SECONDS.
    const rssSamples = [];
    const samples = [];
    const end = settings.warmup + settings.duration;
    for (let second = Math.ceil((Date.now() - started) / 1000); second <= end; second++) {
      const due = started + second * 1000;
      if (Date.now() < due) await abortable(due - Date.now());
      const t = (Date.now() - started) / 1000;
      const rss = rssBytes(app.pid);
      rssSamples.push({ t, v: rss });
      if (second % settings.sampleSeconds !== 0) continue;
      const sample = { t, rss, heapUsed: NaN, heapTotal: NaN, lagP99: NaN };
      try {
        Object.assign(sample, await metrics(baseUrl), { rss });
      } catch (error) {
        log(`metrics unavailable at t=${t.toFixed(0)}s: ${error.message}`);
      }
      samples.push(sample);
      let frames = 0;
      for (const n of natsFrames.values()) frames += n;
      const gcs = appOutput.heapAfterGc;
      const lastGc = gcs.length > 0 ? mb(gcs[gcs.length - 1].v) : 'n/a';
      log(
        `t=${t.toFixed(0).padStart(4)}s${t < settings.warmup ? ' (warm-up)' : ''} rss ${mb(rss)}` +
          ` heap ${mb(sample.heapUsed)} (after last full GC ${lastGc}) lag p99 ${(sample.lagP99 * 1000).toFixed(0)} ms` +
          ` | sent ${provider.stats.sent}, published ${frames},` +
          ` stream frames ${streamCounts.updates + streamCounts.snapshots}, app warnings ${appOutput.count}`,
      );
    }
    const cpuUsed = cpuSeconds(app.pid) - cpuStart;
    const wallUsed = (Date.now() - cpuWallStart) / 1000;

    // Was the load real: did the app take in the states and store the latest of each match?
    const stored = await query(
      url,
      `SELECT m.id, m.stat_id, s.seq, s.snapshot->'clock'->>'minute' AS minute
       FROM fixtures.matches m LEFT JOIN fixtures.live_snapshots s ON s.match_id = m.id`,
    );
    const lags = stored.filter((r) => r.seq !== null).map((r) => provider.lastSeq(r.stat_id) - Number(r.seq));
    lags.sort((a, b) => a - b);
    const probe = matchRows[0];
    const rest = await fetch(`${baseUrl}/v1/matches/${probe.id}/live`, {
      headers: { 'X-API-Key': issued.key },
    });
    const restBody = await rest.json().catch(() => ({}));
    const providerClock = provider.live.find((m) => m.statId === probe.stat_id).clockAt(Date.now());

    let published = 0;
    for (const n of natsFrames.values()) published += n;
    const measured = samples.filter((s) => s.t >= settings.warmup);
    const afterWarmup = (points) => points.filter((p) => p.t >= settings.warmup && p.t <= end);
    const rssTrend = trend('RSS (VmRSS, every second)', 'samples', afterWarmup(rssSamples));
    const heapTrend = trend(
      'heap left after each full GC (--trace-gc Mark-Compact)',
      'collections',
      afterWarmup(appOutput.heapAfterGc),
    );
    const heapRaw = trend(
      `heap used (nodejs_heap_size_used_bytes, every ${settings.sampleSeconds} s)`,
      'samples',
      measured.map((s) => ({ t: s.t, v: s.heapUsed })).filter((p) => Number.isFinite(p.v)),
      false,
    );
    const lagMean = measured.reduce((sum, s) => sum + (s.lagP99 || 0), 0) / Math.max(1, measured.length);
    // The states sent on connect count too: the app applies them once the catalog knows the match.
    const ingestedShare = published / Math.max(1, provider.stats.changed + provider.stats.onConnect);

    const out = [];
    out.push(
      `fixtures-live memory bench: ${settings.matches} live soccer matches x ${settings.statesPerSecond} states/s,` +
        ` ${sockets.length} stream subscribers x ${settings.matchesPerSubscriber} matches`,
    );
    out.push(
      `  window: ${settings.duration} s after a ${settings.warmup} s warm-up; flat means the fitted line grows` +
        ` by less than ${(settings.threshold * 100).toFixed(0)}% of the mean over the window`,
    );
    // The machine's share: on a busy machine the figures mostly measure waiting for a core.
    out.push(
      `  machine: ${os.cpus().length} cores, load average ${loadBefore.toFixed(1)} at the start of sampling,` +
        ` ${os.loadavg()[0].toFixed(1)} at the end; Node ${process.version}; ${new Date().toISOString()}`,
    );
    for (const t of [rssTrend, heapTrend, heapRaw]) out.push(describeTrend(t));
    out.push(
      `  app CPU ${((cpuUsed / wallUsed) * 100).toFixed(0)}% of one core on average; event-loop lag p99 mean ${(lagMean * 1000).toFixed(1)} ms`,
    );
    out.push('load that went through:');
    out.push(
      `  provider sent ${provider.stats.sent} states (${provider.stats.changed} changed, ${provider.stats.repeats} unchanged repeats)` +
        ` + ${provider.stats.onConnect} on connect, over ${provider.stats.connects} feed connection(s); largest send buffer ${provider.stats.maxBufferedBytes} bytes`,
    );
    out.push(
      `  app published ${published} live frames on NATS = ${(ingestedShare * 100).toFixed(1)}% of the changed and on-connect states,` +
        ` for ${natsFrames.size}/${settings.matches} matches`,
    );
    out.push(
      `  stored snapshots: ${lags.length}/${stored.length} matches; stored seq behind the last sent by` +
        ` median ${lags[Math.floor(lags.length / 2)] ?? 'n/a'}, max ${lags[lags.length - 1] ?? 'n/a'}`,
    );
    out.push(
      `  stream: ${streamCounts.snapshots} snapshots, ${streamCounts.updates} updates, ${streamCounts.errors} error frames` +
        `${streamCounts.lastError ? ` (last: ${streamCounts.lastError})` : ''}, unexpected closes ${JSON.stringify(streamCounts.closes)}`,
    );
    out.push(
      `  REST GET /v1/matches/${probe.id}/live: ${rest.status}, clock ${restBody.clock?.minute}:${restBody.clock?.second}` +
        ` (provider ${providerClock.minute}:${providerClock.second}), score ${JSON.stringify(restBody.score)}`,
    );
    out.push(`  app warnings/errors logged: ${appOutput.count}`);
    for (const [message, n] of [...appOutput.groups].sort((a, b) => b[1] - a[1]).slice(0, 10)) {
      out.push(`    ${n} x ${message}`);
    }
    const real =
      ingestedShare > 0.98 &&
      lags.length === settings.matches &&
      // every match stored within five seconds' worth of its states
      lags[lags.length - 1] <= settings.statesPerSecond * 5 &&
      rest.status === 200 &&
      streamCounts.updates > 0;
    const states = [rssTrend.state, heapTrend.state];
    const flat = states.every((state) => state === 'FLAT');
    let memory = 'FLAT';
    if (states.includes('GROWING')) memory = 'GROWING';
    else if (!flat) memory = 'NOT SHOWN FLAT (a trend above the threshold, within the noise: run longer)';
    out.push(`verdict: memory ${memory}; load ${real ? 'went through' : 'DID NOT fully go through'}`);
    console.log(out.join('\n'));
    const growth = (t, figure) =>
      Number.isFinite(t.share)
        ? [{ figure, unit: 'of the mean', samples: [t.share], goal: { op: '<=', value: settings.threshold } }]
        : [];
    reportFigures([
      ...growth(rssTrend, 'RSS growth projected over the window'),
      ...growth(heapTrend, 'heap after full GCs, growth projected over the window'),
      {
        figure: 'load went through (1 yes, 0 no)',
        unit: '',
        samples: [real ? 1 : 0],
        goal: { op: '>=', value: 1 },
      },
    ]);
    process.exitCode = flat && real ? 0 : 1;
  } catch (error) {
    if (appOutput.tail.length > 0 && !aborted.signal.aborted) {
      process.stderr.write(`last app log lines:\n${appOutput.tail.join('\n')}\n`);
    }
    throw error;
  } finally {
    closing = true;
    for (const ws of sockets) ws.terminate();
    if (app) await stopChild(app);
    await Promise.all([...children].map((child) => stopChild(child, 2000)));
    await provider.close();
    if (nats) await nats.close();
    if (created) {
      await query(adminUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      log(`dropped ${database}`);
    }
  }
}

main().catch((error) => {
  process.stderr.write(`fixtures-memory: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = aborted.signal.aborted && interrupts > 0 ? 130 : 1;
});
