#!/usr/bin/env node
// Prints every frame of a WebSocket stream, one per line, after sending the
// given messages once connected:
//   node scripts/ws-tail.js [--reconnect] <url> ['<json>' ...]
// With --reconnect it comes back after the server closes the socket (a
// replica shutting down says 1001) and sends the same messages again with
// `resume_after` set from the newest `seq` it printed per match, so the
// stream replays what was missed instead of starting over. A frame whose
// `prev_seq` does not follow the `seq` held for its match is flagged on stderr.
'use strict';
const { WebSocket: WsClient } = require('ws');

const args = process.argv.slice(2);
const reconnect = args[0] === '--reconnect';
const [url, ...messages] = reconnect ? args.slice(1) : args;
if (!url) {
  process.stderr.write("usage: node scripts/ws-tail.js [--reconnect] <ws-url> ['<json message>' ...]\n");
  process.exit(2);
}

/** Newest seq printed per match (`match_id` in fixtures-live data, `match` / `match_id` in odds frames). */
const held = new Map();
let stopping = false;
let attempt = 0;

function matchOf(frame) {
  return frame.data?.match_id ?? frame.match_id;
}

function remember(frame) {
  const match = matchOf(frame);
  if (typeof frame.seq !== 'number' || match === undefined) return;
  const before = held.get(match);
  if (before !== undefined && frame.prev_seq !== null && frame.prev_seq !== before && frame.seq > before) {
    process.stderr.write(`# gap in match ${match}: held seq ${before}, frame prev_seq ${frame.prev_seq}\n`);
  }
  if (before === undefined || frame.seq > before) held.set(match, frame.seq);
}

/** The message to send again after a reconnect, resuming from what this tail already printed. */
function resumed(text) {
  let message;
  try {
    message = JSON.parse(text);
  } catch {
    return text;
  }
  if (message?.action === 'subscribe') {
    const seq = held.get(message.match_id ?? message.match);
    return seq === undefined ? text : JSON.stringify({ ...message, resume_after: seq });
  }
  if (message?.action === 'subscribe_all' && held.size > 0) {
    return JSON.stringify({ ...message, resume_after: Math.min(...held.values()) });
  }
  return text;
}

function open(first) {
  const socket = new WsClient(url);
  socket.on('unexpected-response', (_request, response) => {
    let body = '';
    response.on('data', (chunk) => (body += chunk));
    response.on('end', () => {
      process.stderr.write(`handshake refused: HTTP ${response.statusCode} ${body}\n`);
      if (reconnect && response.statusCode >= 500) return retry();
      process.exit(1);
    });
  });
  socket.on('open', () => {
    attempt = 0;
    for (const message of messages) socket.send(first ? message : resumed(message));
  });
  socket.on('message', (data) => {
    const text = String(data);
    process.stdout.write(`${text}\n`);
    try {
      remember(JSON.parse(text));
    } catch {
      // Not JSON: printed as it came.
    }
  });
  socket.on('close', (code, reason) => {
    process.stderr.write(`closed: ${code} ${String(reason)}\n`);
    if (reconnect && !stopping && code !== 1008) return retry();
    process.exit(0);
  });
  socket.on('error', (error) => {
    process.stderr.write(`error: ${error.message}\n`);
    if (!reconnect) process.exit(1);
  });
  process.removeAllListeners('SIGINT');
  process.once('SIGINT', () => {
    stopping = true;
    socket.close(1000);
  });
}

function retry() {
  const delay = Math.min(5_000, 250 * 2 ** attempt++);
  process.stderr.write(`# reconnecting in ${delay} ms\n`);
  setTimeout(() => open(false), delay);
}

open(true);
