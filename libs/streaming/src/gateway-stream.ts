import type { IncomingMessage } from 'node:http';
import type { BufferLimits } from './buffered-sender';
import type { Conflate } from './outgoing-queue';
import type { StreamConnection } from './stream-connection';
import type { ConnectionLimit, HandshakeRejection, StreamHeartbeat, StreamServer } from './stream-server';

/** What a gateway decides about its clients before and after the upgrade. */
export interface StreamHandshake<P, M> {
  /** Runs before the upgrade; resolves the client's principal or throws. */
  authenticate(request: IncomingMessage): Promise<P>;
  /** Renders a failed authentication as the app's HTTP error. */
  reject(error: unknown): HandshakeRejection;
  /** Merges a newer pending frame into an older one of the same key; default: keep the newer. */
  readonly conflate?: Conflate<M>;
  readonly limits?: BufferLimits;
  /** Subscriptions currently held on this endpoint, for the metrics endpoint. */
  subscriptionCount?(): number;
  /** Heartbeat frames, at `defaultMs` or the client's `heartbeat_ms`. */
  readonly heartbeat?: StreamHeartbeat<M>;
  /** The app's text for a handshake query parameter that cannot be served (answered with 400). */
  invalidParameter?(name: string): string;
  /** Open sockets one key may hold across the app's stream endpoints. */
  readonly connectionLimit?: ConnectionLimit<P>;
}

/**
 * The server object `StreamAdapter.create` returns for one gateway, and so the
 * one its `afterInit` receives. The path is served from the moment the
 * gateway hands over its handshake (`serve`); a gateway that never does (an
 * app role without streams) leaves the path unserved.
 */
export class GatewayStream<P = unknown, M = unknown> {
  private connectionListener?: (connection: StreamConnection<P, M>) => void;

  constructor(
    readonly path: string,
    private readonly streams: StreamServer,
    private readonly errorFrame: (message: string) => string,
  ) {}

  serve(handshake: StreamHandshake<P, M>): void {
    this.streams.register<P, M>({
      path: this.path,
      authenticate: (request) => handshake.authenticate(request),
      reject: (error) => handshake.reject(error),
      accept: (connection) => this.connectionListener?.(connection),
      errorFrame: this.errorFrame,
      conflate: handshake.conflate,
      limits: handshake.limits,
      subscriptionCount: handshake.subscriptionCount ? () => handshake.subscriptionCount?.() ?? 0 : undefined,
      heartbeat: handshake.heartbeat,
      invalidParameter: handshake.invalidParameter
        ? (name) => handshake.invalidParameter?.(name) ?? ''
        : undefined,
      connectionLimit: handshake.connectionLimit,
    });
  }

  /** Nest's connection handler: lifecycle hooks, then the message handlers, of the gateway. */
  onConnection(listener: (connection: StreamConnection<P, M>) => void): void {
    this.connectionListener = listener;
  }
}
