import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
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
import { type WebSocket, WebSocketServer } from 'ws';
import { closeGently, rawJsonAnswer, serveAsPlainRequest } from '@app/http-edge';
import { redactKeys } from '@app/observability';
import { type BufferLimits, DEFAULT_BUFFER_LIMITS } from './buffered-sender';
import { clientsOverBudget } from './buffer-budget';
import { asksForWebSocket, handshakeProblem } from './handshake-check';
import { CONNECTION_LIMIT_REACHED } from './stream-limits';
import { HeartbeatSchedule, heartbeatParameter } from './heartbeat-schedule';
import type { Conflate, OutgoingFrame } from './outgoing-queue';
import { CloseCode, StreamConnection } from './stream-connection';
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

/** A budget check runs at most this often, and only while some client has frames held. */
const BUDGET_CHECK_MS = 100;
/**
 * Bytes newly held for slow clients that bring the check forward, as a share
 * of the budget: a burst faster than the timer would otherwise outgrow the
 * budget before the check runs.
 */
const BUDGET_SLACK_SHARE = 1 / 8;

/** The HTTP answer to a handshake that may not be upgraded. */
export interface HandshakeRejection {
  readonly status: number;
  readonly body: unknown;
}

/**
 * What a client's key is read from, at the handshake and again at every re-check. Only these two
 * fields are kept per open socket: the whole handshake request (its stream state, raw headers,
 * parser links) would cost each idle socket about 0.6 KiB of heap for nothing.
 */
export type HandshakeRequest = Pick<IncomingMessage, 'url' | 'headers'>;

/** What an endpoint decides about its clients before and after the upgrade. */
export interface StreamHandshake<P, M = unknown> {
  /** Runs before the upgrade, and again whenever keys change; resolves the client's principal or throws. */
  authenticate(request: HandshakeRequest): Promise<P>;
  /** Renders a failed authentication as the app's HTTP error. */
  reject(error: unknown): HandshakeRejection;
  /** Merges a newer pending frame into an older one of the same key; default: keep the newer. */
  readonly conflate?: Conflate<M>;
  readonly limits?: BufferLimits;
  /** Subscriptions currently held on this endpoint, for the metrics endpoint. */
  subscriptionCount?(): number;
  /**
   * Heartbeat frames: every `defaultMs` (none when absent) unless the client
   * asks for another period with `heartbeat_ms` on the stream URL.
   */
  readonly heartbeat?: StreamHeartbeat<M>;
  /** The app's text for a handshake query parameter that cannot be served (answered with 400). */
  invalidParameter?(name: string): string;
  /** Open sockets one key may hold on this server; see ConnectionLimit. */
  readonly connectionLimit?: ConnectionLimit<P>;
}

/** A WebSocket endpoint on the application's HTTP port. */
export interface StreamEndpoint<P, M = unknown> extends StreamHandshake<P, M> {
  /** Exact request path, for example `/v1/stream`. */
  readonly path: string;
  /** Takes over an accepted client. */
  accept(connection: StreamConnection<P, M>): void;
  /** The app's error frame around a message (`StreamConnection.sendError`). */
  errorFrame(message: string): string;
}

/**
 * At most `max` open sockets per key on this server, every endpoint counted
 * together (so per key per service on each replica); one more is refused
 * before the upgrade with 429 in the endpoint's error shape.
 */
export interface ConnectionLimit<P> {
  readonly max: number;
  keyOf(principal: P): string;
}

export interface StreamHeartbeat<M> {
  readonly defaultMs?: number;
  /** The beat of the moment, built once for every client of the same period. */
  frame(): OutgoingFrame<M>;
}

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
  private readonly endpoints = new Map<string, StreamEndpoint<unknown, unknown>>();
  private readonly stats = new Map<string, StreamStats>();
  private readonly heartbeats = new Map<string, HeartbeatSchedule<unknown>>();
  /** Each open client with the endpoint and handshake request its key is checked against again. */
  private readonly connections = new Map<
    StreamConnection<unknown, unknown>,
    { endpoint: StreamEndpoint<unknown, unknown>; request: HandshakeRequest }
  >();
  /** Sockets per key, counted from the moment a handshake passes until its TCP connection closes. */
  private readonly socketsPerKey = new Map<string, number>();
  private readonly wss: WebSocketServer;
  private server?: Server;
  private pingTimer?: NodeJS.Timeout;
  private stopping = false;
  private budgetCheck?: NodeJS.Timeout;
  /** Bytes held for slow clients since the last budget check. */
  private heldSinceCheck = 0;
  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    void this.handleUpgrade(request, socket, head);
  };

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Optional() @Inject(STREAMING_OPTIONS) options?: StreamingOptions,
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.wss = new WebSocketServer({
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
    this.endpoints.set(endpoint.path, endpoint as unknown as StreamEndpoint<unknown, unknown>);
    this.stats.set(endpoint.path, new StreamStats());
    const heartbeat = endpoint.heartbeat;
    if (heartbeat) {
      this.heartbeats.set(endpoint.path, new HeartbeatSchedule<unknown>(() => heartbeat.frame()));
    }
    if (!this.server) this.attach();
  }

  /** Per endpoint: open sockets, subscriptions and counters, read at scrape time. */
  report(): { path: string; open: number; heldBytes: number; subscriptions: number; stats: StreamStats }[] {
    const open = new Map<string, number>();
    const held = new Map<string, number>();
    for (const [connection, { endpoint }] of this.connections) {
      open.set(endpoint.path, (open.get(endpoint.path) ?? 0) + 1);
      held.set(endpoint.path, (held.get(endpoint.path) ?? 0) + connection.heldBytes);
    }
    return [...this.endpoints.values()].map((endpoint) => ({
      path: endpoint.path,
      open: open.get(endpoint.path) ?? 0,
      heldBytes: held.get(endpoint.path) ?? 0,
      subscriptions: endpoint.subscriptionCount?.() ?? 0,
      stats: this.stats.get(endpoint.path) ?? new StreamStats(),
    }));
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** One liveness round over every client (the ping timer calls this). */
  sweep(): void {
    for (const connection of this.connections.keys()) connection.checkAlive();
  }

  /**
   * Checks every client's key again: a key disabled, expired or stripped of
   * its scope or grant since the handshake loses its socket (1008), and a
   * changed allowlist applies to the next subscriptions. An unreachable key
   * store keeps the clients connected.
   */
  async revalidate(): Promise<void> {
    await Promise.all(
      [...this.connections].map(async ([connection, { endpoint, request }]) => {
        try {
          connection.principal = await endpoint.authenticate(request);
        } catch (error) {
          const { status } = endpoint.reject(error);
          if (status === 401 || status === 403)
            connection.close(CloseCode.PolicyViolation, 'API key no longer valid');
        }
      }),
    );
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
    for (const schedule of this.heartbeats.values()) schedule.stop();
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
      const endpoint = this.endpoints.get(pathOf(request.url));
      if (!endpoint) return socket.destroy();
      refuse(
        socket,
        endpoint.reject(new BadRequestException(`invalid WebSocket handshake: ${error.message}`)),
      );
    });
    this.pingTimer = setInterval(() => {
      this.sweep();
      void this.revalidate();
    }, this.options.pingIntervalMs);
    this.pingTimer.unref();
  }

  private async handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    const endpoint = this.endpoints.get(pathOf(request.url));
    if (!endpoint || !asksForWebSocket(request.headers)) {
      // Another listener may own this path; answer only when nobody else will.
      if (!this.server || this.server.listenerCount('upgrade') > 1) return;
      return serveAsPlainRequest(this.server, request, socket);
    }
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
    const handshake: HandshakeRequest = { url: request.url, headers: request.headers };
    this.wss.handleUpgrade(request, socket, head, (ws) =>
      this.open(endpoint, principal, ws, handshake, heartbeatMs),
    );
  }

  /**
   * A method of its own, not a closure inside `handleUpgrade`: the closures a connection keeps for
   * its life would otherwise share that function's scope, and with it the handshake request.
   */
  private open(
    endpoint: StreamEndpoint<unknown, unknown>,
    principal: unknown,
    ws: WebSocket,
    handshake: HandshakeRequest,
    heartbeatMs: number | undefined,
  ): void {
    const stats = this.stats.get(endpoint.path);
    const connection = new StreamConnection(principal, ws, {
      limits: endpoint.limits ?? DEFAULT_BUFFER_LIMITS,
      conflate: endpoint.conflate,
      errorFrame: (message) => endpoint.errorFrame(message),
      slow: {
        onHeld: (_connection, bytes) => this.noteHeld(bytes),
        onDropped: (_connection, reason) => {
          if (stats) stats.closedSlow += 1;
          this.logger.warn(`Closed a slow ${endpoint.path} client (1013): ${reason}`);
        },
      },
      stats,
    });
    this.connections.set(connection, { endpoint, request: handshake });
    connection.onClose(() => this.connections.delete(connection));
    if (heartbeatMs !== undefined) this.heartbeats.get(endpoint.path)?.add(connection, heartbeatMs);
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
    socket.once('close', () => {
      const left = (this.socketsPerKey.get(key) ?? 1) - 1;
      if (left > 0) this.socketsPerKey.set(key, left);
      else this.socketsPerKey.delete(key);
    });
    return true;
  }
}

function pathOf(url: string | undefined): string {
  if (!url) return '';
  const queryStart = url.indexOf('?');
  return queryStart < 0 ? url : url.slice(0, queryStart);
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
