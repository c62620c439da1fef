import type { IncomingMessage } from 'node:http';
import type { BufferLimits } from './buffered-sender';
import type { Conflate, OutgoingFrame } from './outgoing-queue';
import type { StreamConnection } from './stream-connection';

/*
 * What an app declares to serve a WebSocket endpoint on StreamServer: how a
 * client's key is checked before the upgrade and again later, its bounds, its
 * heartbeat and its connection limit.
 */

/** The HTTP answer to a handshake that may not be upgraded. */
export interface HandshakeRejection {
  readonly status: number;
  readonly body: unknown;
}

/**
 * What a client's key is read from, at the handshake and again at every re-check. Only these two
 * fields are kept per open socket: the whole handshake request (its stream state, raw headers,
 * parser links) would cost each idle socket about 0.6 KiB of heap for nothing. Kept, the headers
 * are only the endpoint's `keyHeaders` (see keptRequest).
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
  /**
   * The headers (lower-case) `authenticate` reads, as opposed to the URL: an open socket keeps
   * only these for the re-checks. Absent, it keeps all but the WebSocket handshake's own.
   */
  readonly keyHeaders?: readonly string[];
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
