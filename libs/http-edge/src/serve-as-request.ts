import { type IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { closeGently } from './close-gently';

/**
 * Hands a request that Node took off the HTTP parser (an `Upgrade` nobody
 * accepts, a `CONNECT`) back to the application as an ordinary request, so
 * it gets the answer the same request without those headers would get. HTTP
 * lets a server ignore an `Upgrade` it does not take (an `h2c` probe, a
 * WebSocket client on the wrong path). The parser is gone, so the connection
 * closes after this one answer.
 */
export function serveAsPlainRequest(server: Server, request: IncomingMessage, socket: Duplex): void {
  const response = new ServerResponse(request);
  response.shouldKeepAlive = false;
  response.assignSocket(socket as Socket);
  response.once('finish', () => {
    response.detachSocket(socket as Socket);
    closeGently(socket);
  });
  server.emit('request', request, response);
}
