import type { Principal } from '@app/auth';
import type { ChangePosition, LoggedChange } from '@app/messaging';
import { mayFollowAnother, SUBSCRIPTION_LIMIT_REACHED } from '@app/streaming';
import type { MatchUpdate } from '../book/book-messages';
import type { BookReadPort } from '../book/book-read-port';
import type { BookChange } from '../book/domain/match-odds';
import { type BookFrame, errorFrameText, heartbeatFrame, replayedFrame, updateFrame } from './book-frames';
import { ConflationWindows } from './conflation-windows';
import { SnapshotFrames } from './snapshot-frames';

/** A connected client as the subscriptions see it (a StreamConnection in production). */
export interface BookSubscriber {
  readonly principal: Principal;
  readonly isOpen: boolean;
  send(frame: BookFrame): boolean;
  sendText(text: string): boolean;
}

/** What a resume replays: one match, or a book's matches (of one sport, or all). */
export type ReplayScope =
  | { readonly matchId: number; readonly sportId: number }
  | { readonly matchId?: undefined; readonly sportId?: number };

/**
 * Every logged change of the book within `scope` after a position, oldest
 * first; null when the log no longer holds all of them (snapshots instead).
 */
export type BookReplay = (scope: ReplayScope, afterSeq: number) => Promise<LoggedChange[] | null>;

/** How a client follows: from where (`resume_after`) and how often (`conflate_ms`). */
export interface FollowOptions {
  readonly resumeAfter?: number;
  readonly conflateMs?: number;
}

/** One subscription of one client: a match, or a subscribe_all. */
interface Follow {
  /** Live changes wait out a replay: the replay's last read covers them. */
  replaying: boolean;
  /** Live changes at or below this position went out in the replay. */
  replayedTo: number;
  readonly windows: ConflationWindows;
}

/** The wide subscription's key: every granted sport, or one sport. */
type WideKey = 'all' | number;

interface ClientState {
  readonly matches: Map<number, Follow>;
  readonly wide: Map<WideKey, Follow>;
}

/**
 * The stream of one sportsbook on this replica: who follows which match or
 * sport, and the fan-out of each change the book replica applies. An update is
 * encoded once per change and the same bytes go to every recipient; so is a
 * match's snapshot, once per state, for a burst of subscribes (SnapshotFrames). A client
 * that resumes from a position gets what it missed from the book's change
 * log, then the live changes; one with `conflate_ms` gets at most one merged
 * frame per match per window.
 */
export class BookSubscriptions {
  private readonly clients = new Map<BookSubscriber, ClientState>();
  private readonly byMatch = new Map<number, Set<BookSubscriber>>();
  /** Clients with a subscribe_all, checked against each change's sport. */
  private readonly wide = new Map<BookSubscriber, ClientState>();
  private readonly snapshots = new SnapshotFrames();

  constructor(
    private readonly replica: BookReadPort,
    private readonly book: string,
    private readonly grant: string,
    private readonly replay: BookReplay,
    private readonly now: () => number = () => Date.now(),
    /** Matches one subscriber may follow at once (STREAM_MAX_SUBSCRIPTIONS); subscribe_all is not counted. */
    private readonly maxPerSubscriber = Number.POSITIVE_INFINITY,
  ) {}

  get clientCount(): number {
    return this.clients.size;
  }

  /** Match subscriptions plus subscribe_all subscriptions held on this replica. */
  get subscriptionCount(): number {
    let count = 0;
    for (const state of this.clients.values()) count += state.matches.size + state.wide.size;
    return count;
  }

  connect(subscriber: BookSubscriber): void {
    this.clients.set(subscriber, { matches: new Map(), wide: new Map() });
  }

  disconnect(subscriber: BookSubscriber): void {
    const state = this.clients.get(subscriber);
    if (!state) return;
    for (const [matchId, follow] of state.matches) {
      follow.windows.clear();
      this.leave(subscriber, matchId);
    }
    for (const follow of state.wide.values()) follow.windows.clear();
    this.wide.delete(subscriber);
    this.clients.delete(subscriber);
  }

  /** Fans out one applied change; `serialized` is its update frame, shared by every recipient. */
  publish(change: BookChange, serialized: string, position: ChangePosition): void {
    if (change.book !== this.book) return;
    let update: BookFrame | undefined;
    let snapshot: BookFrame | undefined;
    const shared = () => (update ??= toUpdateFrame(change, serialized, position));
    const explicit = this.byMatch.get(change.matchId);
    for (const subscriber of explicit ?? []) {
      const follow = this.clients.get(subscriber)?.matches.get(change.matchId);
      if (follow) this.offer(subscriber, follow, change.matchId, position.seq, shared);
    }
    for (const [subscriber, state] of this.wide) {
      if (explicit?.has(subscriber)) continue;
      const follow = this.wideFollow(subscriber, state, change.sportId);
      if (!follow) continue;
      // A match that appears later in a subscribe_all starts, like any other, with a snapshot.
      if (change.matchAdded && !change.matchRemoved) {
        snapshot ??= this.snapshotFrame(change.matchId);
        const first = snapshot;
        if (first) {
          this.offer(subscriber, follow, change.matchId, position.seq, () => first);
          continue;
        }
      }
      this.offer(subscriber, follow, change.matchId, position.seq, shared);
    }
    if (change.matchRemoved && explicit) {
      for (const subscriber of explicit) this.clients.get(subscriber)?.matches.delete(change.matchId);
      this.byMatch.delete(change.matchId);
    }
  }

  /** The book's heartbeat at `ts`: built once per beat for every client of the same period. */
  heartbeat(ts: number): BookFrame {
    return heartbeatFrame(ts, this.replica.newestSeq(this.book), this.replica.feedHealthy(this.book));
  }

  /**
   * Follows one match: its changes after `resumeAfter` when the log still
   * holds them all, else a snapshot now; then its updates. An unknown or
   * ungranted match gets an error frame, as does a new match beyond the
   * subscriber's limit (its other matches go on).
   */
  async subscribe(subscriber: BookSubscriber, matchId: number, options: FollowOptions = {}): Promise<void> {
    const state = this.clients.get(subscriber);
    if (!state) return;
    if (!mayFollowAnother(state.matches.size, state.matches.has(matchId), this.maxPerSubscriber)) {
      subscriber.sendText(errorFrameText(SUBSCRIPTION_LIMIT_REACHED));
      return;
    }
    const sportId = this.replica.matchSport(this.book, matchId);
    if (sportId === undefined || !this.replica.snapshot(this.book, matchId)) {
      subscriber.sendText(errorFrameText(`match not found: ${matchId}`));
      return;
    }
    if (!subscriber.principal.canSeeSportsbookSport(this.grant, sportId)) {
      subscriber.sendText(errorFrameText(`API key not permitted for sport ${sportId}`));
      return;
    }
    state.matches.get(matchId)?.windows.clear();
    const follow = this.newFollow(options);
    state.matches.set(matchId, follow);
    let followers = this.byMatch.get(matchId);
    if (!followers) {
      followers = new Set();
      this.byMatch.set(matchId, followers);
    }
    followers.add(subscriber);
    const isCurrent = () => this.clients.get(subscriber)?.matches.get(matchId) === follow;
    if (await this.resume(subscriber, follow, { matchId, sportId }, options.resumeAfter, isCurrent)) return;
    if (!isCurrent() || !subscriber.isOpen) return;
    const first = this.snapshotFrame(matchId);
    if (first) this.deliver(subscriber, follow, matchId, first);
  }

  unsubscribe(subscriber: BookSubscriber, matchId: number): void {
    const state = this.clients.get(subscriber);
    const follow = state?.matches.get(matchId);
    if (!state || !follow) return;
    follow.windows.clear();
    state.matches.delete(matchId);
    this.leave(subscriber, matchId);
  }

  /**
   * Follows every granted sport (now and later), or one sport: the changes
   * after `resumeAfter` when the log still holds them all, else a snapshot
   * of each match now; then changes.
   */
  async subscribeAll(
    subscriber: BookSubscriber,
    sportId: number | undefined,
    options: FollowOptions = {},
  ): Promise<void> {
    const state = this.clients.get(subscriber);
    if (!state) return;
    if (sportId !== undefined && !subscriber.principal.canSeeSportsbookSport(this.grant, sportId)) {
      subscriber.sendText(errorFrameText(`API key not permitted for sport ${sportId}`));
      return;
    }
    const key: WideKey = sportId ?? 'all';
    state.wide.get(key)?.windows.clear();
    const follow = this.newFollow(options);
    state.wide.set(key, follow);
    this.wide.set(subscriber, state);
    const isCurrent = () => this.clients.get(subscriber)?.wide.get(key) === follow;
    if (await this.resume(subscriber, follow, { sportId }, options.resumeAfter, isCurrent)) return;
    if (!isCurrent() || !subscriber.isOpen) return;
    for (const matchId of this.replica.matchIds(this.book, sportId)) {
      const odds = this.replica.snapshot(this.book, matchId);
      const position = this.replica.matchPosition(this.book, matchId);
      if (odds && position && subscriber.principal.canSeeSportsbookSport(this.grant, odds.sport_id)) {
        this.deliver(subscriber, follow, matchId, this.snapshots.frame(odds, position));
      }
    }
  }

  /**
   * Sends the changes after `afterSeq` from the log, and reads again while
   * this replica heard changes during a read (they wait for the replay), so
   * none falls between the replay and the live frames. False when there is
   * nothing to resume from or the log cannot prove it holds every change:
   * the caller sends snapshots, which are always whole.
   */
  private async resume(
    subscriber: BookSubscriber,
    follow: Follow,
    scope: ReplayScope,
    afterSeq: number | undefined,
    isCurrent: () => boolean,
  ): Promise<boolean> {
    if (afterSeq === undefined || afterSeq < 1) return false;
    follow.replaying = true;
    try {
      let from = afterSeq;
      for (;;) {
        const heardBefore = this.replica.newestSeq(this.book);
        let changes: LoggedChange[] | null;
        try {
          changes = await this.replay(scope, from);
        } catch {
          changes = null;
        }
        if (changes === null) return false;
        if (!isCurrent() || !subscriber.isOpen) return true;
        for (const change of changes) {
          from = change.seq;
          const frame = replayedFrame(new TextDecoder().decode(change.data), change);
          const meta = frame?.meta;
          if (!frame || meta?.kind !== 'update') continue;
          if (!subscriber.principal.canSeeSportsbookSport(this.grant, meta.update.sport_id)) continue;
          this.deliver(subscriber, follow, meta.update.match_id, frame);
        }
        const covered = Math.max(from, heardBefore);
        if (this.replica.newestSeq(this.book) <= covered) {
          follow.replayedTo = covered;
          return true;
        }
      }
    } finally {
      follow.replaying = false;
    }
  }

  /** A live change for one follower, unless a replay sent or will send it. */
  private offer(
    subscriber: BookSubscriber,
    follow: Follow,
    matchId: number,
    seq: number,
    frame: () => BookFrame,
  ): void {
    if (follow.replaying || seq <= follow.replayedTo) return;
    this.deliver(subscriber, follow, matchId, frame());
  }

  private deliver(subscriber: BookSubscriber, follow: Follow, matchId: number, frame: BookFrame): void {
    follow.windows.offer(matchId, frame, subscriber);
  }

  private newFollow(options: FollowOptions): Follow {
    return {
      replaying: false,
      replayedTo: 0,
      windows: new ConflationWindows(options.conflateMs ?? 0, this.now),
    };
  }

  /** The subscribe_all that covers a sport for this client, when its key may see that sport. */
  private wideFollow(subscriber: BookSubscriber, state: ClientState, sportId: number): Follow | undefined {
    const follow = state.wide.get('all') ?? state.wide.get(sportId);
    if (!follow || !subscriber.principal.canSeeSportsbookSport(this.grant, sportId)) return undefined;
    return follow;
  }

  private snapshotFrame(matchId: number): BookFrame | undefined {
    const odds = this.replica.snapshot(this.book, matchId);
    const position = this.replica.matchPosition(this.book, matchId);
    return odds && position ? this.snapshots.frame(odds, position) : undefined;
  }

  private leave(subscriber: BookSubscriber, matchId: number): void {
    const followers = this.byMatch.get(matchId);
    if (!followers) return;
    followers.delete(subscriber);
    if (followers.size === 0) this.byMatch.delete(matchId);
  }
}

function toUpdateFrame(change: BookChange, serialized: string, position: ChangePosition): BookFrame {
  const update: MatchUpdate = {
    match_id: change.matchId,
    sport_id: change.sportId,
    ts: change.ts,
    selections: change.selections,
    removed_market_keys: change.removedMarketKeys,
  };
  return updateFrame(update, serialized, position);
}
