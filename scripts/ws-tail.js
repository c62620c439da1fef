#!/usr/bin/env node
// Prints every frame of a WebSocket stream, one per line, after sending the
// given messages once connected: `node scripts/ws-tail.js <url> ['<json>' ...]`.
'use strict';
const { WebSocket: WsClient } = require('ws');

const [url, ...messages] = process.argv.slice(2);
if (!url) {
  process.stderr.write("usage: node scripts/ws-tail.js <ws-url> ['<json message>' ...]\n");
  process.exit(2);
}
const socket = new WsClient(url);
socket.on('unexpected-response', (_request, response) => {
  let body = '';
  response.on('data', (chunk) => (body += chunk));
  response.on('end', () => {
    process.stderr.write(`handshake refused: HTTP ${response.statusCode} ${body}\n`);
    process.exit(1);
  });
});
socket.on('open', () => {
  for (const message of messages) socket.send(message);
});
socket.on('message', (data) => process.stdout.write(`${String(data)}\n`));
socket.on('close', (code, reason) => {
  process.stderr.write(`closed: ${code} ${String(reason)}\n`);
  process.exit(0);
});
socket.on('error', (error) => {
  process.stderr.write(`error: ${error.message}\n`);
  process.exit(1);
});
process.once('SIGINT', () => socket.close(1000));
