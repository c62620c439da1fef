import { Logger } from '@nestjs/common';
import WebSocket, { type RawData } from 'ws';
import { backoffDelay, DEFAULT_BACKOFF } from '@app/clock';
import { parseLiveEnvelope } from '../upstream/livescores.parsers';
import type { UpstreamLiveEnvelope } from '../upstream/livescores.types';

export interface LiveFeedHandlers {
  /** A new connection is open: what follows first is the provider's full current state. */
  readonly onConnected: () => void;
  readonly onEnvelope: (envelope: UpstreamLiveEnvelope) => void;
}

/**
 * A connection that answers no ping within this time is considered dead and
 * replaced. Pongs also count as the provider being heard, so the interval
 * stays well inside the feed-health window.
 */
const PING_INTERVAL_MS = 5_000;

/** The provider counts as healthy while it was heard within this window. */
export const FEED_SILENCE_MS = 10_000;

/**
 * Holds the provider's `/live` WebSocket open: reconnects with capped,
 * jittered backoff after any drop, and turns every message into a checked
 * envelope. Garbage is logged and skipped, never thrown.
 */
export class LiveFeed {
  private readonly logger = new Logger(LiveFeed.name);
  private socket?: WebSocket;
  private attempt = 0;
  private retryTimer?: NodeJS.Timeout;
  private pingTimer?: NodeJS.Timeout;
  private stopped = false;
  private awaitingPong = false;
  private lastHeardAt = 0;

  constructor(
    private readonly url: string,
    private readonly handlers: LiveFeedHandlers,
  ) {}

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    this.socket?.removeAllListeners();
    this.socket?.on('error', () => undefined);
    this.socket?.terminate();
    this.socket = undefined;
  }

  /** True while the provider's stream is open. */
  get connected(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** Open, and a message, a pong or the opening itself within the last `FEED_SILENCE_MS`. */
  healthy(now: number): boolean {
    return this.connected && now - this.lastHeardAt <= FEED_SILENCE_MS;
  }

  private connect(): void {
    if (this.stopped) return;
    const socket = new WebSocket(this.url, { handshakeTimeout: 10_000 });
    this.socket = socket;
    socket.on('open', () => {
      this.logger.log('Connected to the live feed');
      this.attempt = 0;
      this.awaitingPong = false;
      this.lastHeardAt = Date.now();
      this.handlers.onConnected();
      this.pingTimer = setInterval(() => this.ping(socket), PING_INTERVAL_MS);
      this.pingTimer.unref();
    });
    socket.on('pong', () => {
      this.awaitingPong = false;
      this.lastHeardAt = Date.now();
    });
    socket.on('message', (data, isBinary) => {
      this.lastHeardAt = Date.now();
      if (isBinary) {
        this.logger.warn('Skipped a binary live-feed message');
        return;
      }
      this.receive(textOf(data));
    });
    socket.on('error', (error) => this.logger.warn(`Live feed error: ${error.message}`));
    socket.on('close', () => {
      clearInterval(this.pingTimer);
      if (this.socket !== socket || this.stopped) return;
      this.socket = undefined;
      const delay = backoffDelay(this.attempt++, DEFAULT_BACKOFF);
      this.logger.warn(`Live feed closed; reconnecting in ${delay} ms`);
      this.retryTimer = setTimeout(() => this.connect(), delay);
      this.retryTimer.unref();
    });
  }

  private ping(socket: WebSocket): void {
    if (this.awaitingPong) {
      this.logger.warn('Live feed missed a pong; reconnecting');
      socket.terminate();
      return;
    }
    this.awaitingPong = true;
    socket.ping();
  }

  private receive(text: string): void {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      this.logger.warn('Skipped a live-feed message that is not JSON');
      return;
    }
    const parsed = parseLiveEnvelope(body);
    if (!parsed.ok) {
      this.logger.warn(`Skipped a malformed live-feed message: ${parsed.error}`);
      return;
    }
    this.handlers.onEnvelope(parsed.value);
  }
}

function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(new Uint8Array(data)).toString('utf8');
}
