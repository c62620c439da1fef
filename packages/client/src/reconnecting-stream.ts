import { type BackoffOptions, backoffDelay, DEFAULT_BACKOFF } from './backoff';
import { Emitter } from './emitter';
import { StreamError } from './errors';
import { defaultSocketFactory, messageText, OPEN, type SocketFactory, type SocketLike } from './socket';
import { REAL_TIMERS, silenceLimitMs, type Timers, Watchdog } from './watchdog';
import { Positions } from './positions';

/**
 * - `connecting`: the first socket is being opened;
 * - `connected`: open, subscriptions sent without a resume position;
 * - `reconnecting`: the socket was lost; the next attempt waits for its backoff;
 * - `resumed`: open again, and held matches resubscribed from their `seq`;
 * - `closed`: `close()` was called, or the server refused the key.
 */
export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'resumed' | 'closed';

export interface ConnectionChange {
  readonly state: ConnectionState;
  readonly previous: ConnectionState;
  /** Reconnect attempts since a socket last delivered a frame. */
  readonly attempt: number;
  /** Why the socket went away, when it did. */
  readonly reason?: string;
}

export interface Heartbeat {
  readonly ts: number;
  readonly seq?: number;
  readonly feedHealthy: boolean;
}

/** Counters a test or a dashboard can read. */
export interface StreamStats {
  /** Sockets opened, the first included. */
  opens: number;
  snapshots: number;
  updates: number;
  /** Frames ignored because their `seq` was not newer than the held one. */
  duplicates: number;
  /** Frames whose `prev_seq` showed a missed change. */
  gaps: number;
  /** Subscriptions sent with `resume_after`. */
  resumedSubscriptions: number;
  /** Snapshots received for a match that had been resubscribed with `resume_after`. */
  snapshotsAfterResume: number;
  /** Sockets given up because no frame came for three heartbeat periods. */
  silentSockets: number;
}

export interface StreamOptions {
  /** The stream's WebSocket URL: `ws://host:3000/v1/stream` or `ws://host:3001/v1/book/data`. */
  readonly url: string;
  readonly apiKey: string;
  /**
   * Heartbeat period asked of the server (`heartbeat_ms`, 500 to 60000).
   * No frame for three periods counts as a dead socket. Default 5000.
   */
  readonly heartbeatMs?: number;
  /** `conflate_ms` of every subscription (0 to 10000); 0, the default, sends every change. */
  readonly conflateMs?: number;
  readonly backoff?: BackoffOptions;
  /** Opens sockets; the default picks the global WebSocket or `ws`. */
  readonly socketFactory?: SocketFactory;
  readonly random?: () => number;
  readonly timers?: Timers;
}

export interface BaseStreamEvents {
  connection: ConnectionChange;
  heartbeat: Heartbeat;
  /** An `error` frame of the server (the socket stays open). */
  serverError: string;
  /** A problem opening the socket (the stream retries unless the key was refused). */
  error: Error;
  [name: string]: unknown;
}

const HANDSHAKE_STATUS = /Unexpected server response: (\d{3})/;

/**
 * One WebSocket kept open: reconnects with capped, jittered exponential
 * backoff, gives up a socket that stays silent for three heartbeat periods,
 * and lets the subclass resubscribe on every open.
 */
export abstract class ReconnectingStream<Events extends BaseStreamEvents> extends Emitter<Events> {
  readonly stats: StreamStats = {
    opens: 0,
    snapshots: 0,
    updates: 0,
    duplicates: 0,
    gaps: 0,
    resumedSubscriptions: 0,
    snapshotsAfterResume: 0,
    silentSockets: 0,
  };
  private current: ConnectionState = 'idle';
  private socket: SocketLike | undefined;
  private attempt = 0;
  private retryTimer: unknown;
  private stopped = false;
  private refused: StreamError | undefined;
  private readonly watchdog: Watchdog;
  private readonly timers: Timers;
  protected readonly heartbeatMs: number;
  /** Each match's position, to resume from after a reconnect. */
  protected readonly positions = new Positions();
  /** Matches resubscribed with resume_after whose first frame has not come yet. */
  protected readonly resuming = new Set<number>();
  protected readonly conflateMs: number;
  private feedHealthy: boolean | undefined;

  constructor(protected readonly options: StreamOptions) {
    super();
    this.heartbeatMs = options.heartbeatMs ?? 5_000;
    this.conflateMs = options.conflateMs ?? 0;
    this.timers = options.timers ?? REAL_TIMERS;
    this.watchdog = new Watchdog(silenceLimitMs(this.heartbeatMs), () => this.onSilence(), this.timers);
  }

  get state(): ConnectionState {
    return this.current;
  }

  /** The last heartbeat's `feed_healthy`; undefined before the first heartbeat. */
  get isFeedHealthy(): boolean | undefined {
    return this.feedHealthy;
  }

  /** Opens the socket; later losses reconnect by themselves until `close()`. */
  connect(): this {
    if (this.current !== 'idle') return this;
    this.setState('connecting');
    void this.open();
    return this;
  }

  /** Closes for good. */
  close(): void {
    this.stopped = true;
    this.watchdog.stop();
    if (this.retryTimer !== undefined) this.timers.clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const socket = this.socket;
    this.socket = undefined;
    if (socket) {
      detach(socket);
      socket.close(1000, 'client closed');
    }
    this.setState('closed');
  }

  /** Sends a message when a socket is open; false when none is (it is sent on the next open instead). */
  /**
   * Subscribes to one match (`field` names it in the service's message),
   * resuming after its held position when there is one; true when it resumes.
   */
  protected subscribeMatch(field: 'match_id' | 'match', matchId: number): boolean {
    const resumeAfter = this.positions.of(matchId);
    const message: Record<string, unknown> = { action: 'subscribe', [field]: matchId };
    if (resumeAfter !== undefined) message.resume_after = resumeAfter;
    if (this.conflateMs > 0) message.conflate_ms = this.conflateMs;
    if (!this.send(message)) return false;
    if (resumeAfter !== undefined) {
      this.resuming.add(matchId);
      this.stats.resumedSubscriptions += 1;
    }
    return resumeAfter !== undefined;
  }

  /** A heartbeat frame of either service: its `seq` is a position seen, its time feeds the watchdog. */
  protected heartbeatFrame(frame: Record<string, unknown>): void {
    const seq = typeof frame.seq === 'number' ? frame.seq : undefined;
    if (seq !== undefined) this.positions.seen(seq);
    this.noteHeartbeat({ ts: Number(frame.ts), seq, feedHealthy: frame.feed_healthy === true });
  }

  protected send(message: object): boolean {
    if (!this.socket || this.socket.readyState !== OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  protected get isOpen(): boolean {
    return this.socket !== undefined && this.socket.readyState === OPEN;
  }

  /** Sends every subscription on a new socket; returns whether any resumed from a position. */
  protected abstract resubscribe(): boolean;

  /** One parsed frame. */
  protected abstract handleFrame(frame: Record<string, unknown>): void;

  protected noteHeartbeat(heartbeat: Heartbeat): void {
    this.feedHealthy = heartbeat.feedHealthy;
    this.emitBase('heartbeat', heartbeat);
  }

  /** Emits an event every stream has; `emit` itself is typed by the subclass's events. */
  protected emitBase<K extends keyof BaseStreamEvents & string>(
    event: K,
    payload: BaseStreamEvents[K],
  ): void {
    (this.emit as (event: string, payload: unknown) => void).call(this, event, payload);
  }

  private streamUrl(): string {
    const url = new URL(this.options.url);
    url.searchParams.set('heartbeat_ms', String(this.heartbeatMs));
    return url.toString();
  }

  private async open(): Promise<void> {
    let socket: SocketLike;
    try {
      socket = await (this.options.socketFactory ?? defaultSocketFactory)(this.streamUrl(), {
        'X-API-Key': this.options.apiKey,
      });
    } catch (error) {
      this.emitBase('error', error instanceof Error ? error : new StreamError(String(error)));
      this.retry('socket could not be created');
      return;
    }
    if (this.stopped) {
      socket.close(1000, 'client closed');
      return;
    }
    this.socket = socket;
    // Also bounds the handshake: no open within the silence limit counts as a dead socket.
    this.watchdog.kick();
    socket.onopen = () => {
      const reconnected = this.stats.opens > 0;
      this.stats.opens += 1;
      this.watchdog.kick();
      const resumed = this.resubscribe();
      this.setState(reconnected && resumed ? 'resumed' : 'connected');
    };
    socket.onmessage = (event) => {
      this.watchdog.kick();
      // The backoff starts again once the server delivers, not merely accepts: a server
      // that closes every socket straight after the handshake is not retried in a tight loop.
      this.attempt = 0;
      let frame: unknown;
      try {
        frame = JSON.parse(messageText(event.data));
      } catch {
        return;
      }
      if (frame && typeof frame === 'object') this.handleFrame(frame as Record<string, unknown>);
    };
    socket.onerror = (event) => {
      const message = errorMessage(event);
      const status = HANDSHAKE_STATUS.exec(message);
      if (status && (status[1] === '401' || status[1] === '403')) {
        this.refused = new StreamError(`the stream refused the key (HTTP ${status[1]})`, Number(status[1]));
      }
      this.emitBase('error', new StreamError(message, status ? Number(status[1]) : undefined));
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.watchdog.stop();
      if (this.refused) {
        this.stopped = true;
        this.setState('closed', this.refused.message);
        return;
      }
      this.retry(`closed ${event.code}${event.reason ? ` ${event.reason}` : ''}`);
    };
  }

  private onSilence(): void {
    const socket = this.socket;
    if (!socket) return;
    this.stats.silentSockets += 1;
    this.socket = undefined;
    detach(socket);
    // A dead peer would never complete a closing handshake: drop the socket outright.
    const terminate = (socket as { terminate?: () => void }).terminate;
    if (typeof terminate === 'function') terminate.call(socket);
    else socket.close(4000, 'heartbeat missed');
    this.retry(`no frame for ${silenceLimitMs(this.heartbeatMs)} ms`);
  }

  private retry(reason: string): void {
    if (this.stopped) return;
    const delay = backoffDelay(this.attempt, this.options.backoff ?? DEFAULT_BACKOFF, this.options.random);
    this.attempt += 1;
    this.setState('reconnecting', reason);
    this.retryTimer = this.timers.setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.stopped) void this.open();
    }, delay);
  }

  private setState(state: ConnectionState, reason?: string): void {
    const previous = this.current;
    if (previous === state && state !== 'reconnecting') return;
    this.current = state;
    this.emitBase('connection', { state, previous, attempt: this.attempt, reason });
  }
}

function detach(socket: SocketLike): void {
  socket.onopen = null;
  socket.onmessage = null;
  socket.onclose = null;
  socket.onerror = () => undefined;
}

function errorMessage(event: unknown): string {
  if (event && typeof event === 'object') {
    const { message, error } = event as { message?: unknown; error?: unknown };
    if (typeof message === 'string' && message) return message;
    if (error instanceof Error) return error.message;
  }
  return 'WebSocket error';
}
