import { projectClockSeconds } from './clock';
import type { LiveDataFrame, LiveSnapshot } from './fixtures-types';
import { type BaseStreamEvents, ReconnectingStream, type StreamOptions } from './reconnecting-stream';

/** What the client holds for one match of the live-score stream. */
export interface LiveMatchState {
  readonly matchId: number;
  readonly snapshot: LiveSnapshot & { match_id: number };
  /** `seq` of the frame the snapshot came from. */
  readonly seq: number;
  /** Local time the frame arrived (ms). */
  readonly receivedAt: number;
}

export interface LiveMatchChange {
  readonly state: LiveMatchState;
  readonly op: 'snapshot' | 'update';
}

export interface LiveStreamEvents extends BaseStreamEvents {
  /** A match's state changed (a new snapshot or update was applied). */
  match: LiveMatchChange;
}

/**
 * The fixtures-live stream (`/v1/stream`): subscriptions survive reconnects
 * and resume from the newest `seq` held per match, so a reconnect while the
 * server still retains that position brings only the missed updates.
 */
export class LiveScoresStream extends ReconnectingStream<LiveStreamEvents> {
  private readonly subscribed = new Set<number>();
  private readonly states = new Map<number, LiveMatchState>();

  constructor(options: StreamOptions) {
    super(options);
  }

  subscribe(matchId: number): void {
    this.subscribed.add(matchId);
    this.sendSubscribe(matchId);
  }

  unsubscribe(matchId: number): void {
    this.subscribed.delete(matchId);
    this.states.delete(matchId);
    this.positions.forget(matchId);
    this.resuming.delete(matchId);
    this.send({ action: 'unsubscribe', match_id: matchId });
  }

  get subscriptions(): number[] {
    return [...this.subscribed];
  }

  /** The current state of a match, undefined until its first frame. */
  match(matchId: number): LiveMatchState | undefined {
    return this.states.get(matchId);
  }

  matches(): LiveMatchState[] {
    return [...this.states.values()];
  }

  /** The newest `seq` applied for a match. */
  seqOf(matchId: number): number | undefined {
    return this.positions.of(matchId);
  }

  /**
   * Seconds to show on the match clock at `nowMs` (soccer only): the frame's
   * minute:second plus the time since its `as_of` while the clock runs.
   */
  clockSeconds(matchId: number, nowMs: number = Date.now()): number | undefined {
    const snapshot = this.states.get(matchId)?.snapshot;
    return snapshot?.sport === 'soccer' ? projectClockSeconds(snapshot.clock, nowMs) : undefined;
  }

  protected resubscribe(): boolean {
    let resumed = false;
    for (const matchId of this.subscribed) resumed = this.sendSubscribe(matchId) || resumed;
    return resumed;
  }

  private sendSubscribe(matchId: number): boolean {
    return this.subscribeMatch('match_id', matchId);
  }

  protected handleFrame(frame: Record<string, unknown>): void {
    switch (frame.op) {
      case 'snapshot':
      case 'update':
        this.apply(frame as unknown as LiveDataFrame);
        return;
      case 'heartbeat':
        this.heartbeatFrame(frame);
        return;
      case 'error':
        this.emitBase('serverError', String(frame.error));
        return;
      default:
        return;
    }
  }

  private apply(frame: LiveDataFrame): void {
    const matchId = frame.data?.match_id;
    if (typeof matchId !== 'number' || !this.subscribed.has(matchId)) return;
    const verdict = this.positions.judge(matchId, frame.seq, frame.prev_seq);
    if (verdict === 'stale') {
      this.stats.duplicates += 1;
      return;
    }
    // Every frame carries the whole state, so a gap loses no state: count it and apply.
    if (verdict === 'gap' && this.conflateMs === 0) this.stats.gaps += 1;
    if (frame.op === 'snapshot') {
      this.stats.snapshots += 1;
      if (this.resuming.has(matchId)) this.stats.snapshotsAfterResume += 1;
    } else {
      this.stats.updates += 1;
    }
    this.resuming.delete(matchId);
    this.positions.applied(matchId, frame.seq);
    const state: LiveMatchState = { matchId, snapshot: frame.data, seq: frame.seq, receivedAt: Date.now() };
    this.states.set(matchId, state);
    this.emit('match', { state, op: frame.op });
  }
}
