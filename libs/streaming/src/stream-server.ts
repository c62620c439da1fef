import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  BadRequestException,
  type BeforeApplicationShutdown,
  HttpException,
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  Optional,
  ServiceUnavailableException,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { type Server as WsServer, WebSocketServer } from 'ws';
import { closeGently, rawJsonAnswer, serveAsPlainRequest } from '@app/http-edge';
import { redactKeys } from '@app/observability';
import { DEFAULT_BUFFER_LIMITS } from './buffered-sender';
import { clientsOverBudget } from './buffer-budget';
import { asksForWebSocket, handshakeProblem } from './handshake-check';
import { keptRequest, pathOf } from './handshake-request';
import { CONNECTION_LIMIT_REACHED } from './stream-limits';
import { HeartbeatSchedule, heartbeatParameter } from './heartbeat-schedule';
import { CloseCode, type ConnectionOptions, StreamConnection, StreamSocket } from './stream-connection';
import type {
  ConnectionLimit,
  HandshakeRejection,
  HandshakeRequest,
  StreamEndpoint,
} from './stream-endpoint';
import { StreamStats } from './stream-stats';

export const STREAMING_OPTIONS = Symbol('STREAMING_OPTIONS');

export interface StreamingOptions {
  /** Protocol ping period; a peer that misses two pongs is closed. */
  readonly pingIntervalMs?: number;
  /** How long sockets get to finish the closing handshake at shutdown before they are cut. */
  readonly shutdownGraceMs?: number;
  /** Largest client frame accepted; bigger ones close the socket (1009). */
  readonly maxClientFrameBytes?: number;
  /** Bytes all slow clients together may hold; past it the biggest holders are closed (1013). */
  readonly bufferBudgetBytes?: number;
}

const DEFAULTS: Required<StreamingOptions> = {
  pingIntervalMs: 30_000,
  shutdownGraceMs: 2_000,
  // A frame of 64 KiB or more closes the socket.
  maxClientFrameBytes: 64 * 1024 - 1,
  bufferBudgetBytes: 4 * 1024 * 1024,
};

/**
 * Clients a round over every client (pings, key checks) handles per turn of
 * the event loop. One turn for all of them held a live stream's frames behind
 * 2,000 pings for about 45 ms every ping period; a slice is a few ms.
 */
export const CLIENTS_PER_TURN = 100;

/** A budget check runs at most this often, and only while some client has frames held. */
const BUDGET_CHECK_MS = 100;
/**
 * Bytes newly held for slow clients that bring the check forward, as a share
 * of the budget: a burst faster than the timer would otherwise outgrow the
 * budget before the check runs.
 */
const BUDGET_SLACK_SHARE = 1 / 8;

/**
 * Serves any number of WebSocket endpoints on the Nest HTTP server: one
 * `upgrade` listener dispatches by path, the key is checked before the
 * upgrade, pings find dead peers, and shutdown closes every socket with 1001
 * so clients reconnect to another replica.
 */
@Injectable()
export class StreamServer implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger(StreamServer.name);
  private readonly options: Required<StreamingOptions>;
  private readonly endpoints = new Map<string, Served>();
  /**
   * Each open client with the handshake request its key is checked against again; its endpoint is
   * the one at the request's path, so no client keeps a record of its own.
   */
  private readonly connections = new Map<StreamConnection<unknown, unknown>, HandshakeRequest>();
  /** Sockets per key, counted from the moment a handshake passes until its TCP connection closes. */
  private readonly socketsPerKey = new Map<string, number>();
  private readonly wss: WsServer<typeof StreamSocket>;
  private server?: Server;
  private pingTimer?: NodeJS.Timeout;
  private revalidating = false;
  private stopping = false;
  private budgetCheck?: NodeJS.Timeout;
  /** Bytes held for slow clients since the last budget check. */
  private heldSinceCheck = 0;
  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    // A fault in one handshake (a listener below it that throws) costs that socket, never the process.
    this.handleUpgrade(request, socket, head).catch((error: unknown) => {
      this.logger.error(`Handling an upgrade failed: ${describe(error)}`);
      socket.destroy();
    });
  };
  /** One close listener for every client. */
  private readonly forget = (connection: StreamConnection<unknown, unknown>): void => {
    this.connections.delete(connection);
  };

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Optional() @Inject(STREAMING_OPTIONS) options?: StreamingOptions,
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.wss = new WebSocketServer<typeof StreamSocket>({
      WebSocket: StreamSocket,
      noServer: true,
      clientTracking: false,
      perMessageDeflate: false,
      maxPayload: this.options.maxClientFrameBytes,
    });
  }

  /** Adds an endpoint; the first one attaches the server to the HTTP port. */
  register<P, M>(endpoint: StreamEndpoint<P, M>): void {
    if (this.endpoints.has(endpoint.path))
      throw new Error(`stream endpoint ${endpoint.path} registered twice`);
    const served = endpoint as unknown as StreamEndpoint<unknown, unknown>;
    const stats = new StreamStats();
    const heartbeat = endpoint.heartbeat;
    this.endpoints.set(endpoint.path, {
      endpoint: served,
      stats,
      heartbeats: heartbeat && new HeartbeatSchedule<unknown>(() => heartbeat.frame()),
      // Built once per endpoint and shared by its clients, not once per client.
      connectionOptions: {
        limits: endpoint.limits ?? DEFAULT_BUFFER_LIMITS,
        conflate: served.conflate,
        errorFrame: (message) => served.errorFrame(message),
        slow: {
          onHeld: (_connection, bytes) => this.noteHeld(bytes),
          onDropped: (_connection, reason) => {
            stats.closedSlow += 1;
            this.logger.warn(`Closed a slow ${endpoint.path} client (1013): ${reason}`);
          },
        },
        stats,
      },
    });
    if (!this.server) this.attach();
  }

  /** Per endpoint: open sockets, subscriptions and counters, read at scrape time. */
  report(): { path: string; open: number; heldBytes: number; subscriptions: number; stats: StreamStats }[] {
    const open = new Map<string, number>();
    const held = new Map<string, number>();
    for (const [connection, request] of this.connections) {
      const path = pathOf(request.url);
      open.set(path, (open.get(path) ?? 0) + 1);
      held.set(path, (held.get(path) ?? 0) + connection.heldBytes);
    }
    return [...this.endpoints.values()].map(({ endpoint, stats }) => ({
      path: endpoint.path,
      open: open.get(endpoint.path) ?? 0,
      heldBytes: held.get(endpoint.path) ?? 0,
      subscriptions: endpoint.subscriptionCount?.() ?? 0,
      stats,
    }));
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** One liveness round over every client (the ping timer calls this), a slice per turn. */
  sweep(): Promise<void> {
    return this.eachClient((connection) => {
      connection.checkAlive();
    });
  }

  /**
   * Checks every client's key again: a key disabled, expired or stripped of
   * its scope or grant since the handshake loses its socket (1008), and a
   * changed allowlist applies to the next subscriptions. An unreachable key
   * store keeps the clients connected.
   */
  revalidate(): Promise<void> {
    return this.eachClient(async (connection, request) => {
      const endpoint = this.endpoints.get(pathOf(request.url))?.endpoint;
      if (!endpoint) return;
      try {
        connection.principal = await endpoint.authenticate(request);
      } catch (error) {
        const { status } = endpoint.reject(error);
        if (status === 401 || status === 403)
          connection.close(CloseCode.PolicyViolation, 'API key no longer valid');
      }
    });
  }

  /**
   * `act` on every client open now, CLIENTS_PER_TURN of them per turn of the
   * event loop (the first slice at once); a client closed meanwhile is
   * skipped. Resolves once every act has settled: a slice does not wait for
   * the one before, so a slow key store delays no client behind another.
   */
  private async eachClient(
    act: (connection: StreamConnection<unknown, unknown>, request: HandshakeRequest) => void | Promise<void>,
  ): Promise<void> {
    const round = [...this.connections];
    const acts: Promise<void>[] = [];
    for (let at = 0; at < round.length; at += CLIENTS_PER_TURN) {
      if (at > 0) await nextTurn();
      for (const [connection, request] of round.slice(at, at + CLIENTS_PER_TURN)) {
        if (!this.connections.has(connection)) continue;
        const acted = act(connection, request);
        if (acted) acts.push(acted);
      }
    }
    await Promise.all(acts);
  }

  /** A key check still going when the next ping period starts lets that period's check pass. */
  private pingRound(): void {
    void this.sweep();
    if (this.revalidating) return;
    this.revalidating = true;
    void this.revalidate().finally(() => (this.revalidating = false));
  }

  /** Lets the biggest holders go (1013) while all clients together hold more than the budget. */
  enforceBufferBudget(): void {
    clearTimeout(this.budgetCheck);
    this.budgetCheck = undefined;
    this.heldSinceCheck = 0;
    const open = [...this.connections.keys()];
    const over = clientsOverBudget(
      open.map((connection) => connection.heldBytes),
      this.options.bufferBudgetBytes,
    );
    for (const index of over) open[index].dropForSlowness('client too slow: server buffer budget exhausted');
  }

  /** Checks the budget now once a slack's worth was held since the last check, else soon. */
  private noteHeld(bytes: number): void {
    this.heldSinceCheck += bytes;
    if (this.heldSinceCheck > this.options.bufferBudgetBytes * BUDGET_SLACK_SHARE) {
      this.enforceBufferBudget();
      return;
    }
    if (this.budgetCheck) return;
    this.budgetCheck = setTimeout(() => this.enforceBufferBudget(), BUDGET_CHECK_MS);
    this.budgetCheck.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    if (this.pingTimer) clearInterval(this.pingTimer);
    for (const { heartbeats } of this.endpoints.values()) heartbeats?.stop();
    clearTimeout(this.budgetCheck);
    this.server?.off('upgrade', this.onUpgrade);
    const open = [...this.connections.keys()];
    if (open.length === 0) return;
    await new Promise<void>((resolve) => {
      let remaining = open.length;
      const timer = setTimeout(() => {
        for (const connection of open) if (!connection.closed) connection.terminate();
        resolve();
      }, this.options.shutdownGraceMs);
      timer.unref();
      for (const connection of open) {
        connection.onClose(() => {
          remaining -= 1;
          if (remaining === 0) {
            clearTimeout(timer);
            resolve();
          }
        });
        connection.close(CloseCode.GoingAway, 'server shutting down');
      }
    });
  }

  onApplicationShutdown(): void {
    for (const connection of this.connections.keys()) connection.terminate();
    this.wss.close();
  }

  private attach(): void {
    this.server = this.adapterHost.httpAdapter.getHttpServer() as Server;
    this.server.on('upgrade', this.onUpgrade);
    // Whatever the checks in handleUpgrade let through and the WebSocket library still refuses.
    this.wss.on('wsClientError', (error: Error, socket: Duplex, request: IncomingMessage) => {
      const endpoint = this.endpoints.get(pathOf(request.url))?.endpoint;
      if (!endpoint) return socket.destroy();
      refuse(
        socket,
        endpoint.reject(new BadRequestException(`invalid WebSocket handshake: ${error.message}`)),
      );
    });
    this.pingTimer = setInterval(() => this.pingRound(), this.options.pingIntervalMs);
    this.pingTimer.unref();
  }

  private async handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', destroyOnError);
    const served = this.endpoints.get(pathOf(request.url));
    if (!served || !asksForWebSocket(request.headers)) {
      // Another listener may own this path; answer only when nobody else will.
      if (!this.server || this.server.listenerCount('upgrade') > 1) return;
      return serveAsPlainRequest(this.server, request, socket);
    }
    const endpoint = served.endpoint;
    const shuttingDown = () => endpoint.reject(new ServiceUnavailableException('server shutting down'));
    if (this.stopping) return refuse(socket, shuttingDown());
    const problem = handshakeProblem(request);
    if (problem) {
      return refuse(
        socket,
        endpoint.reject(new HttpException(problem.message, problem.status)),
        problem.headers,
      );
    }
    let principal: unknown;
    try {
      principal = await endpoint.authenticate(request);
    } catch (error) {
      return refuse(socket, endpoint.reject(error));
    }
    let heartbeatMs: number | undefined;
    if (endpoint.heartbeat) {
      const asked = heartbeatParameter(request.url);
      if (asked === null) {
        const message = endpoint.invalidParameter?.('heartbeat_ms') ?? 'invalid parameter: heartbeat_ms';
        return refuse(socket, endpoint.reject(new BadRequestException(message)));
      }
      heartbeatMs = asked ?? endpoint.heartbeat.defaultMs;
    }
    if (this.stopping) return refuse(socket, shuttingDown());
    if (socket.destroyed) return;
    if (endpoint.connectionLimit && !this.holdSocketForKey(endpoint.connectionLimit, principal, socket)) {
      return refuse(socket, endpoint.reject(new HttpException(CONNECTION_LIMIT_REACHED, 429)));
    }
    const handshake = keptRequest(request, endpoint.keyHeaders);
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      // `ws` handles the socket's errors from here on.
      socket.off('error', destroyOnError);
      this.open(served, principal, ws, handshake, heartbeatMs);
    });
  }

  private open(
    { endpoint, connectionOptions, heartbeats }: Served,
    principal: unknown,
    ws: StreamSocket,
    handshake: HandshakeRequest,
    heartbeatMs: number | undefined,
  ): void {
    const connection = new StreamConnection(principal, ws, connectionOptions);
    this.connections.set(connection, handshake);
    connection.onClose(this.forget);
    if (heartbeatMs !== undefined) heartbeats?.add(connection, heartbeatMs);
    try {
      endpoint.accept(connection);
    } catch (error) {
      this.logger.error(`Accepting a ${endpoint.path} client failed: ${describe(error)}`);
      connection.close(1011, 'internal error');
    }
  }

  /**
   * Counts the socket against its key unless the key already holds its
   * limit. The count goes when the TCP connection closes, whatever happens in
   * between (the WebSocket library refuses the upgrade, the client leaves).
   */
  private holdSocketForKey<P>(limit: ConnectionLimit<P>, principal: P, socket: Duplex): boolean {
    const key = limit.keyOf(principal);
    const held = this.socketsPerKey.get(key) ?? 0;
    if (held >= limit.max) return false;
    this.socketsPerKey.set(key, held + 1);
    // A TCP socket emits `close` once: `once` would add a wrapper per socket for nothing.
    socket.on('close', () => {
      const left = (this.socketsPerKey.get(key) ?? 1) - 1;
      if (left > 0) this.socketsPerKey.set(key, left);
      else this.socketsPerKey.delete(key);
    });
    return true;
  }
}

/** An endpoint with what its clients share. */
interface Served {
  readonly endpoint: StreamEndpoint<unknown, unknown>;
  readonly stats: StreamStats;
  readonly heartbeats?: HeartbeatSchedule<unknown>;
  readonly connectionOptions: ConnectionOptions<unknown, unknown>;
}

/** The `error` listener of a socket until `ws` takes it over; one function for every socket. */
function destroyOnError(this: Duplex): void {
  this.destroy();
}

/** Answers a handshake that is not upgraded, in the endpoint's error shape, and closes the connection. */
function refuse(
  socket: Duplex,
  { status, body }: HandshakeRejection,
  headers?: Record<string, string>,
): void {
  if (socket.destroyed) return;
  socket.write(rawJsonAnswer(status, body, headers));
  closeGently(socket);
}

function describe(error: unknown): string {
  return redactKeys(error instanceof Error ? error.message : String(error));
}
