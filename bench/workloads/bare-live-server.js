// The bare baseline of the live fan-out: a `ws` server that reads the provider's /live socket as
// fixtures-live does, parses each message, serialises one update frame per state (the product's
// frame shape: op, seq, prev_seq, data = the state with its match_id) once, and sends that buffer
// to the match's subscribers. A `{"action":"subscribe","match_id":N}` frame subscribes a socket
// and answers the latest state as a snapshot. No key check, no storage, no NATS.
//
// Environment: PORT, UPSTREAM_URL (the provider), MATCH_IDS (JSON: provider stat_id → match id),
// FRAME_BYTES (optional): update frames are padded to that length (support/padded-frame.js), so
// the bare server sends as many bytes per frame as the product it is compared to.
'use strict';
const http = require('node:http');
const { WebSocket: WsClient, WebSocketServer } = require('ws');
const { paddedFrame } = require('../support/padded-frame');

const matchIdOf = JSON.parse(process.env.MATCH_IDS);
const subscribers = new Map();
const latest = new Map();
const frameBytes = Number(process.env.FRAME_BYTES ?? 0);

const server = http.createServer((_req, res) => res.end());
const wss = new WebSocketServer({ server, path: '/v1/stream' });
wss.on('connection', (socket) => {
  socket.on('message', (data) => {
    const request = JSON.parse(data.toString());
    if (request.action !== 'subscribe') return;
    let set = subscribers.get(request.match_id);
    if (!set) subscribers.set(request.match_id, (set = new Set()));
    set.add(socket);
    const state = latest.get(request.match_id);
    socket.send(
      `{"op":"snapshot","seq":${state?.seq ?? 0},"prev_seq":null,"data":${state?.payload ?? 'null'}}`,
    );
  });
  socket.on('close', () => {
    for (const set of subscribers.values()) set.delete(socket);
  });
});

const upstream = new WsClient(`${process.env.UPSTREAM_URL.replace(/^http/, 'ws')}/live`);
upstream.on('message', (data) => {
  const envelope = JSON.parse(data.toString());
  const matchId = matchIdOf[envelope.stat_id];
  if (matchId === undefined) return;
  const previous = latest.get(matchId);
  const payload = JSON.stringify({ match_id: matchId, ...envelope.state });
  latest.set(matchId, { seq: envelope.seq, payload });
  const frame = paddedFrame(
    `{"op":"update","seq":${envelope.seq},"prev_seq":${previous?.seq ?? 'null'},"data":${payload}}`,
    frameBytes,
  );
  for (const socket of subscribers.get(matchId) ?? []) socket.send(frame);
});
upstream.on('error', (error) => {
  console.error(`bare live server: upstream ${error.message}`);
  process.exit(1);
});

server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
