import { type RawData, WebSocket } from 'ws';
import { type BufferLimits, BufferedSender } from './buffered-sender';
import type { Conflate, OutgoingFrame } from './outgoing-queue';
import type { StreamStats } from './stream-stats';
import { WireSink } from './wire-frame';

/** Close codes this library uses (RFC 6455 section 7.4.1 and the IANA registry). */
export const CloseCode = {
  GoingAway: 1001,
  PolicyViolation: 1008,
  TryAgainLater: 1013,
} as const;

/** How long a client let go for slowness gets to take its close frame before the TCP connection is cut. */
const SLOW_CLOSE_GRACE_MS = 1_000;

/** What the server hears about a client that falls behind. */
export interface SlowClientHooks<P, M> {
  /**
   * A frame of `bytes` stays held for this client, unsent in its socket or
   * waiting in its queue: the server may check its buffer budget.
   */
  onHeld(connection: StreamConnection<P, M>, bytes: number): void;
  /** The client was let go with 1013. */
  onDropped(connection: StreamConnection<P, M>, reason: string): void;
}

/**
 * Text frames share one Buffer per message, whatever the number of recipients.
 * The Buffer is its own allocation, not a slice of Node's shared 8 KiB pool: a
 * frame waiting for a slow client would otherwise pin a whole slab, and the
 * bytes counted against the buffer bounds would be a fraction of those held.
 */
export function encodeFrame(text: string): Buffer {
  const frame = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'));
  frame.write(text, 'utf8');
  return frame;
}

/** How an accepted client is served: its bounds, its conflation rule, its error frame and who hears about it falling behind. */
export interface ConnectionOptions<P, M> {
  readonly limits: BufferLimits;
  readonly conflate?: Conflate<M>;
  /** The app's error frame around a message, for a client frame that cannot be served. */
  readonly errorFrame: (message: string) => string;
  readonly slow: SlowClientHooks<P, M>;
  readonly stats?: StreamStats;
}

type CloseListener = (connection: StreamConnection<unknown, unknown>) => void;

/**
 * The server's WebSocket, holding what its event listeners work on: the
 * listeners are then the same functions for every client, where closures of
 * each client would cost every idle socket about 0.4 KiB of heap.
 */
export class StreamSocket extends WebSocket {
  connection?: StreamConnection<unknown, unknown>;
  /** Pings sent since the last pong. */
  unansweredPings = 0;
  textListener?: (text: string) => void;
  closeListeners?: CloseListener[];
}

/**
 * One accepted client: who it is, a bounded writer in front of its socket and
 * the bookkeeping for protocol pings. It is the client object gateways receive
 * (`@ConnectedSocket()`), so they never write to the raw socket.
 */
export class StreamConnection<P = unknown, M = unknown> {
  private readonly sender: BufferedSender<M>;
  /** Set once the client is let go for slowness (1013), so that happens once. */
  private lettingGo = false;

  constructor(
    /** Replaced when the key is checked again and its grants have changed. */
    public principal: P,
    private readonly socket: StreamSocket,
    /** Shared by every client of an endpoint. */
    private readonly options: ConnectionOptions<P, M>,
  ) {
    this.sender = new BufferedSender<M>(
      new WireSink(socket),
      options.limits,
      options.conflate,
      options.stats,
    );
    socket.connection = this as StreamConnection<unknown, unknown>;
    socket.on('pong', heardPong);
    socket.on('message', heardFrame);
    socket.on('error', failed);
    socket.on('close', closed);
  }

  get isOpen(): boolean {
    return this.socket.readyState === this.socket.OPEN;
  }

  /** Sends (or queues) a frame; false once the client is gone or was dropped for being too slow. */
  send(frame: OutgoingFrame<M>): boolean {
    if (!this.isOpen) return false;
    const outcome = this.sender.send(frame);
    if (outcome === 'sent') {
      // A client that reads keeps its socket empty: only a frame the kernel did not take counts.
      if (this.socket.bufferedAmount > 0) this.options.slow.onHeld(this, frame.data.length);
      return true;
    }
    if (outcome === 'queued') {
      this.options.slow.onHeld(this, frame.data.length);
      return true;
    }
    this.dropForSlowness('client too slow: outgoing buffer full');
    return false;
  }

  /**
   * Bytes held for this client: unsent in the socket plus waiting in its
   * queue. None once it is being let go: they are freed at the cut.
   */
  get heldBytes(): number {
    if (this.lettingGo) return 0;
    return this.socket.bufferedAmount + this.sender.queuedBytes;
  }

  /**
   * Lets a client go that cannot keep up: 1013 (try again later) and, since a
   * client that does not read will not read its close frame either, the
   * connection is cut shortly after so that what it held is freed.
   */
  dropForSlowness(reason: string): void {
    if (this.lettingGo) return;
    this.lettingGo = true;
    this.sender.discard();
    this.options.slow.onDropped(this, reason);
    this.close(CloseCode.TryAgainLater, reason);
    const cut = setTimeout(() => this.socket.terminate(), SLOW_CLOSE_GRACE_MS);
    cut.unref();
    this.onClose(() => clearTimeout(cut));
  }

  sendText(text: string): boolean {
    return this.send({ data: encodeFrame(text) });
  }

  /** Tells the client why a frame of its own was not served; the socket stays open. */
  sendError(message: string): boolean {
    return this.sendText(this.options.errorFrame(message));
  }

  onMessage(listener: (text: string) => void): void {
    this.socket.textListener = listener;
  }

  /**
   * Runs `listener` once the socket has closed (now if it has). It gets the
   * connection, so one function can serve every client.
   */
  onClose(listener: (connection: StreamConnection<P, M>) => void): void {
    if (this.socket.readyState === this.socket.CLOSED) {
      listener(this);
      return;
    }
    // `concat` copies to an array of the exact length, where `push` would leave room for 16 more.
    const listeners = this.socket.closeListeners;
    const added = listener as CloseListener;
    this.socket.closeListeners = listeners ? listeners.concat(added) : [added];
  }

  close(code: number, reason: string): void {
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) {
      this.socket.close(code, reason);
    }
  }

  terminate(): void {
    this.socket.terminate();
  }

  get closed(): boolean {
    return this.socket.readyState === this.socket.CLOSED;
  }

  /**
   * One liveness round: a peer that left two pings unanswered is cut off,
   * otherwise it gets another ping. Returns false when the peer was dropped.
   */
  checkAlive(): boolean {
    if (this.socket.unansweredPings >= 2) {
      this.socket.terminate();
      return false;
    }
    if (this.isOpen) {
      this.socket.unansweredPings += 1;
      this.socket.ping();
    }
    return true;
  }
}

function heardPong(this: WebSocket): void {
  (this as StreamSocket).unansweredPings = 0;
}

/** Binary frames are read as UTF-8 too, so a client library that sends JSON as binary still works. */
function heardFrame(this: WebSocket, data: RawData): void {
  (this as StreamSocket).textListener?.(rawToText(data));
}

/**
 * A protocol error (a frame over the limit, invalid UTF-8) arrives after `ws` has already sent its
 * close frame: cutting the TCP connection now would reset it before the client reads the close
 * code, so `ws` is left to finish the closing handshake and time it out.
 */
function failed(this: WebSocket): void {
  if (this.readyState !== this.CLOSING) this.terminate();
}

/** Listened to with `on`: `ws` emits `close` once, and `once` would add a wrapper per socket. */
function closed(this: WebSocket): void {
  const socket = this as StreamSocket;
  const listeners = socket.closeListeners;
  socket.closeListeners = undefined;
  if (!listeners || !socket.connection) return;
  for (const listener of listeners) listener(socket.connection);
}

function rawToText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
