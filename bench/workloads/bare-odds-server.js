// The bare baseline of the odds fan-out: a poller that reads the same fake sportsbook's markets
// (one full load, then the delta `?since=` every POLL_MS, as odds-passthrough does), diffs every
// price it gets against the one it holds, naively (a Map by matchup, market and designation), and
// a `ws` broadcaster that sends each match's changed selections as one update frame, serialised
// once, to every socket that sent `{"action":"subscribe_all"}` (which first gets one snapshot
// frame per match). No key check, no NATS, no matchup listing. `GET /v1/book/odds?match=ID`
// answers a match's selections as held (the big-book workload reads it).
//
// With STORE_URL (a PostgreSQL URL), each poll's changed selections, the first full load
// included, are stored in table bench_bare_prices with one multi-row statement (unnest).
//
// Environment: PORT, UPSTREAM_URL, SPORT, POLL_MS, FRAME_BYTES (optional, support/padded-frame.js),
// STORE_URL (optional).
'use strict';
const http = require('node:http');
const { WebSocketServer } = require('ws');
const { paddedFrame } = require('../support/padded-frame');

const sport = Number(process.env.SPORT);
const frameBytes = Number(process.env.FRAME_BYTES ?? 0);
const prices = new Map();
const byMatch = new Map();
const subscribers = new Set();
let last;

function selection(market, price) {
  return {
    market_key: market.key,
    period: market.period,
    bet_name: price.designation,
    line: price.points,
    price: price.price,
    status: market.status,
    version: market.version,
    cutoff_at: market.cutoff_at,
  };
}

let store;
if (process.env.STORE_URL) {
  const { Client } = require('pg');
  store = new Client({ connectionString: process.env.STORE_URL });
}

const STORE_SQL = `INSERT INTO bench_bare_prices (matchup_id, market_key, designation, price)
  SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::int[])
  ON CONFLICT (matchup_id, market_key, designation) DO UPDATE SET price = EXCLUDED.price`;

/** Stores the changed selections, one statement. */
async function save(changed) {
  const columns = [[], [], [], []];
  for (const [matchId, selections] of changed) {
    for (const s of selections) {
      columns[0].push(matchId);
      columns[1].push(s.market_key);
      columns[2].push(s.bet_name);
      columns[3].push(s.price);
    }
  }
  if (columns[0].length > 0) await store.query(STORE_SQL, columns);
}

/** Applies markets; answers the changed selections by match. */
function apply(markets) {
  const changed = new Map();
  for (const market of markets) {
    for (const price of market.prices) {
      const id = `${market.matchup_id}|${market.key}|${price.designation}`;
      if (prices.get(id) === price.price) continue;
      prices.set(id, price.price);
      const current = selection(market, price);
      let match = byMatch.get(market.matchup_id);
      if (!match) byMatch.set(market.matchup_id, (match = new Map()));
      match.set(id, current);
      if (!changed.has(market.matchup_id)) changed.set(market.matchup_id, []);
      changed.get(market.matchup_id).push(current);
    }
  }
  return changed;
}

async function poll() {
  const response = await fetch(
    `${process.env.UPSTREAM_URL}/sports/${sport}/markets${last === undefined ? '' : `?since=${last}`}`,
  );
  const body = await response.json();
  last = body.last;
  const changed = apply(body.markets);
  if (store) await save(changed);
  const ts = Date.now();
  for (const [matchId, selections] of changed) {
    const frame = paddedFrame(
      JSON.stringify({
        type: 'update',
        match_id: matchId,
        sport_id: sport,
        ts,
        selections,
        removed_market_keys: [],
      }),
      frameBytes,
    );
    for (const socket of subscribers) socket.send(frame);
  }
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://bare');
  const match = byMatch.get(Number(url.searchParams.get('match')));
  if (url.pathname !== '/v1/book/odds' || !match) return res.writeHead(404).end();
  const body = JSON.stringify({
    match_id: Number(url.searchParams.get('match')),
    selections: [...match.values()],
  });
  res.writeHead(200, { 'content-type': 'application/json' }).end(body);
});
const wss = new WebSocketServer({ server, path: '/v1/book/data' });
wss.on('connection', (socket) => {
  socket.on('message', (data) => {
    if (JSON.parse(data.toString()).action !== 'subscribe_all') return;
    subscribers.add(socket);
    for (const [matchId, selections] of byMatch) {
      socket.send(
        JSON.stringify({
          type: 'snapshot',
          match_id: matchId,
          sport_id: sport,
          selections: [...selections.values()],
        }),
      );
    }
  });
  socket.on('close', () => subscribers.delete(socket));
});

async function loop() {
  const started = Date.now();
  try {
    await poll();
  } catch (error) {
    console.error(`bare odds server: poll ${error.message}`);
  }
  setTimeout(loop, Math.max(0, Number(process.env.POLL_MS) - (Date.now() - started)));
}

server.listen(Number(process.env.PORT), '127.0.0.1', async () => {
  await store?.connect();
  void loop();
});
process.on('SIGTERM', () => process.exit(0));
