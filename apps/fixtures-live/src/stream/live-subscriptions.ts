import type { Principal } from '@app/auth';
import type { ChangePosition, LoggedChange } from '@app/messaging';
import { mayFollowAnother, SUBSCRIPTION_LIMIT_REACHED } from '@app/streaming';
import type { LiveMatchDirectory, VisibleMatch } from '../live/live-match-directory';
import { errorFrameText, type LiveFrame, liveFrame, type LiveOp } from './live-frames';
import { payloadText } from './payload-text';

/** A connected client as the subscriptions see it (a StreamConnection in production). */
export interface LiveSubscriber {
  readonly principal: Principal;
  readonly isOpen: boolean;
  send(frame: LiveFrame): boolean;
  sendText(text: string): boolean;
}

/**
 * Every logged change of a match after a position, oldest first; null when
 * the log no longer holds all of them (the client then gets a snapshot).
 */
export type ChangeReplay = (match: VisibleMatch, afterSeq: number) => Promise<LoggedChange[] | null>;

interface Latest {
  /** The snapshot JSON with `match_id`, as the ingest published it. */
  readonly payload: string;
  /** Null only for a state stored while the change log could not take it. */
  readonly position: ChangePosition | null;
}

interface SubscriberState {
  /** Its first frame for this match went out (a snapshot, or the first replayed update). */
  started: boolean;
  /** Live frames wait while the log replays this subscriber's missed changes. */
  replaying: boolean;
  /** The newest `seq` sent to it for this match; nothing at or below it goes out again. */
  sentSeq: number;
  /** The client's `conflate_ms`: at most one frame per window, with the newest state (0: every change). */
  readonly conflateMs: number;
  /** When the current window closes (epoch ms); states arriving before wait for it. */
  windowEnds: number;
  /** The newest state waiting for the window to close. */
  held?: Latest;
  timer?: NodeJS.Timeout;
}

/** How a client follows a match: from where (`resume_after`) and how often (`conflate_ms`). */
export interface FollowOptions {
  readonly resumeAfter?: number;
  readonly conflateMs?: number;
}

/** Frames of one state, built for its first recipient and shared by every other one. */
type StateFrames = Partial<Record<LiveOp, LiveFrame>>;

interface Channel {
  readonly matchId: number;
  /** The latest state; null until the match has gone live. */
  latest: Latest | null;
  /**
   * Frames of `latest` for clients subscribing after it was published: they share one snapshot,
   * not a Buffer each for the same bytes. The publish's own frames are not kept here, so a match
   * nobody subscribes to holds no frame between its changes.
   */
  latestFrames: StateFrames;
  readonly subscribers: Map<LiveSubscriber, SubscriberState>;
}

/**
 * Who follows which match on this replica, and the fan-out of each change.
 * Only matches with subscribers are held in memory; the rest is read from the
 * directory when someone subscribes. Each change becomes one Buffer shared by
 * every subscriber of the match. A subscriber that resumes from a position
 * gets the changes it missed from the change log, then the live ones.
 */
export class LiveSubscriptions {
  private readonly channels = new Map<number, Channel>();
  private readonly bySubscriber = new Map<LiveSubscriber, Followed>();

  constructor(
    private readonly directory: LiveMatchDirectory,
    private readonly replay: ChangeReplay,
    private readonly now: () => number = () => Date.now(),
    /** Matches one subscriber may follow at once (STREAM_MAX_SUBSCRIPTIONS). */
    private readonly maxPerSubscriber = Number.POSITIVE_INFINITY,
  ) {}

  /** Matches with at least one subscriber on this replica. */
  get matchCount(): number {
    return this.channels.size;
  }

  /** Subscriptions held on this replica, one per client and match. */
  get subscriptionCount(): number {
    let count = 0;
    for (const matches of this.bySubscriber.values()) count += followedCount(matches);
    return count;
  }

  /**
   * Follows a match, from `resumeAfter` when the change log still holds every
   * change after it; what cannot be served becomes an error frame, as does a
   * new match beyond the subscriber's limit (its other matches go on).
   */
  async subscribe(subscriber: LiveSubscriber, matchId: number, options: FollowOptions = {}): Promise<void> {
    const held = this.bySubscriber.get(subscriber);
    if (!mayFollowAnother(followedCount(held), followsMatch(held, matchId), this.maxPerSubscriber)) {
      subscriber.sendText(errorFrameText(SUBSCRIPTION_LIMIT_REACHED));
      return;
    }
    try {
      await this.join(subscriber, matchId, options);
    } catch {
      this.unsubscribe(subscriber, matchId);
      subscriber.sendText(errorFrameText(`temporarily unable to subscribe to match ${matchId}; try again`));
    }
  }

  unsubscribe(subscriber: LiveSubscriber, matchId: number): void {
    this.leave(subscriber, matchId);
    const held = this.bySubscriber.get(subscriber);
    if (held === matchId) this.bySubscriber.delete(subscriber);
    else if (typeof held === 'object') held.delete(matchId);
  }

  /** A new state of a match, as published by the ingest (the exact snapshot JSON) with its position. */
  publish(matchId: number, payload: string, position: ChangePosition | null): void {
    const channel = this.channels.get(matchId);
    if (!channel || !isNewer(position, payload, channel.latest)) return;
    const latest = { payload, position };
    channel.latest = latest;
    channel.latestFrames = {};
    const frames: StateFrames = {};
    for (const [subscriber, state] of channel.subscribers) {
      if (!state.replaying) this.deliver(subscriber, state, matchId, latest, frames);
    }
  }

  disconnect(subscriber: LiveSubscriber): void {
    const held = this.bySubscriber.get(subscriber);
    for (const matchId of typeof held === 'number' ? [held] : (held ?? [])) this.leave(subscriber, matchId);
    this.bySubscriber.delete(subscriber);
  }

  /**
   * Re-reads the stored state of every followed match and sends what differs,
   * for changes published while this replica could not hear them.
   */
  async resync(): Promise<void> {
    for (const channel of [...this.channels.values()]) {
      const stored = await this.directory.latestFrame(channel.matchId);
      if (stored !== null) this.publish(channel.matchId, stored.data, stored.position);
    }
  }

  private async join(subscriber: LiveSubscriber, matchId: number, options: FollowOptions): Promise<void> {
    const { resumeAfter, conflateMs = 0 } = options;
    const match = await this.directory.findVisibleMatch(matchId);
    if (!subscriber.isOpen) return;
    if (!match || !subscriber.principal.canSeeFixturesSport(match.sportId)) {
      subscriber.sendText(errorFrameText(`match not found: ${matchId}`));
      return;
    }
    const channel = this.follow(subscriber, matchId, conflateMs);
    const state = channel.subscribers.get(subscriber);
    if (state && resumeAfter !== undefined && resumeAfter > 0) {
      state.replaying = true;
      const resumed = await this.resume(subscriber, state, match, channel, resumeAfter);
      state.replaying = false;
      if (resumed) return;
    }
    if (channel.latest === null) {
      const stored = await this.directory.latestFrame(matchId);
      // A change heard while reading is newer than the stored state.
      if (stored !== null && channel.latest === null) {
        channel.latest = { payload: stored.data, position: stored.position };
        channel.latestFrames = {};
      }
    }
    // A Test at stumps sends nothing until play resumes; the resumed state is then this client's snapshot.
    if (match.closeOfPlay) return;
    if (!state || state.started || channel.latest === null || !subscriber.isOpen) return;
    this.deliver(subscriber, state, matchId, channel.latest, channel.latestFrames);
  }

  /**
   * Sends the changes after `afterSeq` from the log, again from the last one
   * sent until the log has nothing newer than what this replica heard live,
   * so that no change falls between the replay and the live frames. False
   * when the log cannot prove it holds them all: the caller sends a snapshot.
   */
  private async resume(
    subscriber: LiveSubscriber,
    state: SubscriberState,
    match: VisibleMatch,
    channel: Channel,
    afterSeq: number,
  ): Promise<boolean> {
    let from = afterSeq;
    for (;;) {
      let changes: LoggedChange[] | null;
      try {
        changes = await this.replay(match, from);
      } catch {
        changes = null;
      }
      if (changes === null) return from !== afterSeq;
      if (!subscriber.isOpen || channel.subscribers.get(subscriber) !== state) return true;
      for (const change of changes) {
        const position = { seq: change.seq, prevSeq: change.prevSeq };
        this.sendLatest(
          subscriber,
          state,
          match.id,
          { payload: payloadText(change.data), position },
          {},
          'update',
        );
        from = change.seq;
      }
      state.started = true;
      const heard = channel.latest?.position?.seq ?? 0;
      if (changes.length === 0 || heard <= from) {
        // What this replica heard live but the log had not yet returned goes out now.
        if (channel.latest && heard > state.sentSeq)
          this.sendLatest(subscriber, state, match.id, channel.latest, channel.latestFrames);
        return true;
      }
    }
  }

  /** A state for one subscriber, now or, inside its conflation window, when the window closes. */
  private deliver(
    subscriber: LiveSubscriber,
    state: SubscriberState,
    matchId: number,
    latest: Latest,
    shared: StateFrames,
  ): void {
    if (state.conflateMs > 0) {
      const now = this.now();
      if (state.started && now < state.windowEnds) {
        state.held = latest;
        state.timer ??= setTimeout(
          () => this.closeWindow(subscriber, state, matchId),
          state.windowEnds - now,
        );
        state.timer.unref();
        return;
      }
      state.windowEnds = now + state.conflateMs;
    }
    this.sendLatest(subscriber, state, matchId, latest, shared);
  }

  private closeWindow(subscriber: LiveSubscriber, state: SubscriberState, matchId: number): void {
    state.timer = undefined;
    const held = state.held;
    state.held = undefined;
    if (!held || !subscriber.isOpen) return;
    state.windowEnds = this.now() + state.conflateMs;
    this.sendLatest(subscriber, state, matchId, held, {});
  }

  /** One frame of the match's state to one subscriber: its snapshot first, updates after. */
  private sendLatest(
    subscriber: LiveSubscriber,
    state: SubscriberState,
    matchId: number,
    latest: Latest,
    shared: StateFrames,
    op: LiveOp = state.started ? 'update' : 'snapshot',
  ): void {
    const position = latest.position ?? UNLOGGED;
    if (state.started && latest.position && position.seq <= state.sentSeq) return;
    state.started = true;
    state.sentSeq = Math.max(state.sentSeq, position.seq);
    subscriber.send((shared[op] ??= liveFrame(op, matchId, position, latest.payload)));
  }

  private follow(subscriber: LiveSubscriber, matchId: number, conflateMs: number): Channel {
    let channel = this.channels.get(matchId);
    if (!channel) {
      channel = { matchId, latest: null, latestFrames: {}, subscribers: new Map() };
      this.channels.set(matchId, channel);
    }
    // Subscribing again asks for a fresh snapshot.
    clearTimeout(channel.subscribers.get(subscriber)?.timer);
    channel.subscribers.set(subscriber, {
      started: false,
      replaying: false,
      sentSeq: 0,
      conflateMs,
      windowEnds: 0,
    });
    const held = this.bySubscriber.get(subscriber);
    if (held === undefined) this.bySubscriber.set(subscriber, matchId);
    else if (typeof held === 'object') held.add(matchId);
    else if (held !== matchId) this.bySubscriber.set(subscriber, new Set([held, matchId]));
    return channel;
  }

  private leave(subscriber: LiveSubscriber, matchId: number): void {
    const channel = this.channels.get(matchId);
    if (!channel) return;
    clearTimeout(channel.subscribers.get(subscriber)?.timer);
    channel.subscribers.delete(subscriber);
    if (channel.subscribers.size === 0) this.channels.delete(matchId);
  }
}

/** The matches of one subscriber: most follow a single match, which needs no Set. */
type Followed = number | Set<number>;

function followedCount(matches: Followed | undefined): number {
  if (matches === undefined) return 0;
  return typeof matches === 'number' ? 1 : matches.size;
}

function followsMatch(matches: Followed | undefined, matchId: number): boolean {
  return typeof matches === 'number' ? matches === matchId : (matches?.has(matchId) ?? false);
}

/**
 * The position shown for a state stored while the change log could not take
 * it and never logged since (or stored before positions existed): the lowest
 * there is. Every change logged later for the match is greater, bar the very
 * first of a new log, and that one carries this same state.
 */
const UNLOGGED: ChangePosition = { seq: 1, prevSeq: null };

/** Positions order states; without one, only a different state is news. */
function isNewer(position: ChangePosition | null, payload: string, latest: Latest | null): boolean {
  if (!latest) return true;
  if (position && latest.position) return position.seq > latest.position.seq;
  return payload !== latest.payload;
}
