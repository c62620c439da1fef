// The WebSocket clients of the stream workloads, in the load process.
'use strict';
const { WebSocket: WsClient } = require('ws');

const CONNECT_BATCH = 50;

/**
 * Opens `count` sockets on `url` (CONNECT_BATCH at a time), each sending `request(i)` once open
 * and handing its frames to `onFrame(data, i)`; resolves with the sockets.
 */
async function openClients({ url, count, request, onFrame }) {
  const sockets = [];
  const open = (i) => {
    const socket = new WsClient(url);
    sockets.push(socket);
    socket.on('message', (data) => onFrame(data, i));
    socket.on('error', () => undefined);
    return new Promise((resolve, reject) => {
      socket.once('open', () => {
        socket.send(JSON.stringify(request(i)));
        resolve();
      });
      socket.once('error', reject);
    });
  };
  for (let s = 0; s < count; s += CONNECT_BATCH) {
    const batch = [];
    for (let i = s; i < Math.min(count, s + CONNECT_BATCH); i++) batch.push(open(i));
    await Promise.all(batch);
  }
  return sockets;
}

/** Terminates `sockets` and waits until each has closed. */
async function closeClients(sockets) {
  const closed = sockets.map((socket) => new Promise((resolve) => socket.once('close', resolve)));
  for (const socket of sockets) socket.terminate();
  await Promise.all(closed);
}

/** Closes a load process's clients (`state.sockets`) and forgets them and their snapshots. */
async function dropClients(state) {
  await closeClients(state.sockets);
  state.sockets = [];
  state.snapshots = 0;
}

module.exports = { openClients, closeClients, dropClients };
