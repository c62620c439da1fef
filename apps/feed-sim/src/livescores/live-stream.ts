import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { WebSocket, WebSocketServer } from 'ws';
import type { LiveMessage } from '../model/live-feed';
import { SimulationService } from '../simulation/simulation.service';

/** A reader this far behind is cut off, as a provider would, rather than buffered without end. */
const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;

/**
 * `GET /live` upgraded to a WebSocket: the latest state of every live match
 * on connect, then each envelope as the simulation produces it, serialized
 * once for all readers. Faults drop streams and garble frames.
 */
@Injectable()
export class LiveStream implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(LiveStream.name);
  private readonly server = new WebSocketServer({ noServer: true });
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly sim: SimulationService,
  ) {}

  onApplicationBootstrap(): void {
    const http = this.adapterHost.httpAdapter.getHttpServer() as Server;
    http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.upgrade(request, socket, head),
    );
    this.unsubscribe = this.sim.onMessages((messages) => this.broadcast(messages));
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
    for (const client of this.server.clients) client.close(1001, 'simulator stopping');
    this.server.close();
  }

  private upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/live') {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const faults = this.sim.faults;
    if (faults.http() === 'error') {
      socket.end(
        `HTTP/1.1 ${faults.errorStatus()} Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
      );
      return;
    }
    this.server.handleUpgrade(request, socket, head, (client) => {
      client.on('error', (error) => this.logger.debug(`stream reader error: ${error.message}`));
      for (const message of this.sim.simulation.live.current()) this.send(client, message);
    });
  }

  private broadcast(messages: readonly LiveMessage[]): void {
    const faults = this.sim.faults;
    for (const client of this.server.clients) {
      if (client.readyState !== WebSocket.OPEN) continue;
      if (faults.dropStream(this.sim.tickMs) || client.bufferedAmount > MAX_BUFFERED_BYTES) {
        client.terminate();
        continue;
      }
      for (const message of messages) this.send(client, message);
    }
  }

  private send(client: WebSocket, message: LiveMessage): void {
    const faults = this.sim.faults;
    client.send(faults.malformedFrame() ? faults.corrupt(message.json) : message.json);
  }
}
