import type { Duplex } from 'node:stream';

/**
 * How long a connection that is being closed keeps reading what the client
 * still sends. A client uploading a large refused request on a busy machine
 * can take seconds to finish (seen: 2 s was not enough for 690 KB under a
 * loaded CI run); what it sends meanwhile is read and dropped, never held.
 */
const DEFAULT_LINGER_MS = 5_000;

/**
 * Ends our side after an answer and keeps reading (and dropping) whatever
 * the client is still sending, for a short while. Destroying a socket with
 * unread bytes makes the kernel reset the connection, and a client that was
 * still writing a long request would then lose the answer already sent.
 */
export function closeGently(socket: Duplex, lingerMs = DEFAULT_LINGER_MS): void {
  if (socket.destroyed) return;
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
  socket.on('error', () => socket.destroy());
  socket.end();
  socket.resume();
}
