// The bare baseline of the odds fan-out: a poller that reads the same fake sportsbook's markets
// (one full load, then the delta `?since=` every POLL_MS, as odds-passthrough does), diffs every
// price it gets against the one it holds, naively (a Map by matchup, market and designation), and
// a `ws` broadcaster that sends each match's changed selections as one update frame, serialised
// once, to every socket that sent `{"action":"subscribe_all"}` (which first gets one snapshot
// frame per match). No key check, no storage, no NATS, no matchup listing.
//
// Environment: PORT, UPSTREAM_URL, SPORT, POLL_MS, FRAME_BYTES (optional, support/padded-frame.js).
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

const server = http.createServer((_req, res) => res.end());
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

server.listen(Number(process.env.PORT), '127.0.0.1', () => void loop());
process.on('SIGTERM', () => process.exit(0));
