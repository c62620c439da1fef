import { applyBookFrame, type MatchBook } from './book-state';
import type { BookSnapshotFrame, BookUpdateFrame } from './odds-types';
import { type BaseStreamEvents, ReconnectingStream, type StreamOptions } from './reconnecting-stream';

export interface BookChangeEvent {
  readonly matchId: number;
  readonly book: MatchBook;
  readonly op: 'snapshot' | 'update';
  /** Markets replaced by this frame (new version or first seen). */
  readonly changed: readonly string[];
  /** Markets withdrawn by this frame. */
  readonly removed: readonly string[];
}

export interface OddsStreamEvents extends BaseStreamEvents {
  /** A match's prices changed. */
  book: BookChangeEvent;
}

/** `all` covers every granted sport; a number narrows `subscribe_all` to one sport. */
type AllScope = 'all' | number;

/**
 * The odds-passthrough stream (`<prefix>/data`): per-market dedupe by
 * `version`, removed keys applied, one book per match. Subscriptions survive
 * reconnects and resume from the held `seq` (a `subscribe_all` from the
 * smallest position among the matches it covers).
 */
export class OddsStream extends ReconnectingStream<OddsStreamEvents> {
  private readonly matches = new Set<number>();
  private readonly scopes = new Set<AllScope>();
  private readonly books = new Map<number, MatchBook>();
  /** The held seq a gap last made a match resume from; a second gap there is not asked for again. */
  private readonly gapResumedFrom = new Map<number, number>();

  constructor(options: StreamOptions) {
    super(options);
  }

  subscribe(matchId: number): void {
    this.matches.add(matchId);
    this.sendSubscribe(matchId);
  }

  unsubscribe(matchId: number): void {
    this.matches.delete(matchId);
    this.send({ action: 'unsubscribe', match: matchId });
    if (!this.coveredByAll(this.books.get(matchId)?.sportId)) this.forget(matchId);
  }

  /** Every match of the granted sports, or of one sport, including matches that appear later. */
  subscribeAll(sport?: number): void {
    const scope: AllScope = sport ?? 'all';
    this.scopes.add(scope);
    this.sendSubscribeAll(scope);
  }

  /** The prices held for a match, undefined until its first frame. */
  book(matchId: number): MatchBook | undefined {
    return this.books.get(matchId);
  }

  allBooks(): MatchBook[] {
    return [...this.books.values()];
  }

  seqOf(matchId: number): number | undefined {
    return this.positions.of(matchId);
  }

  protected resubscribe(): boolean {
    let resumed = false;
    for (const matchId of this.matches) resumed = this.sendSubscribe(matchId) || resumed;
    for (const scope of this.scopes) resumed = this.sendSubscribeAll(scope) || resumed;
    return resumed;
  }

  private sendSubscribe(matchId: number): boolean {
    return this.subscribeMatch('match', matchId);
  }

  private sendSubscribeAll(scope: AllScope): boolean {
    const covered = [...this.books.values()]
      .filter((book) => scope === 'all' || book.sportId === scope)
      .map((book) => book.matchId);
    const resumeAfter = this.positions.resumePointFor(covered);
    const message: Record<string, unknown> = { action: 'subscribe_all' };
    if (scope !== 'all') message.sport = scope;
    if (resumeAfter !== undefined) message.resume_after = resumeAfter;
    if (this.conflateMs > 0) message.conflate_ms = this.conflateMs;
    if (!this.send(message)) return false;
    if (resumeAfter !== undefined) {
      for (const id of covered) this.resuming.add(id);
      this.stats.resumedSubscriptions += 1;
    }
    return resumeAfter !== undefined;
  }

  protected handleFrame(frame: Record<string, unknown>): void {
    switch (frame.type) {
      case 'snapshot':
      case 'update':
        this.apply(frame as unknown as BookSnapshotFrame | BookUpdateFrame);
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

  private apply(frame: BookSnapshotFrame | BookUpdateFrame): void {
    const matchId = frame.match_id;
    if (!this.matches.has(matchId) && !this.coveredByAll(frame.sport_id)) return;
    const verdict = this.positions.judge(matchId, frame.seq, frame.prev_seq);
    if (verdict === 'stale') {
      this.stats.duplicates += 1;
      return;
    }
    if (verdict === 'gap' && this.conflateMs === 0 && frame.type === 'update') {
      this.stats.gaps += 1;
      const held = this.positions.of(matchId)!;
      if (this.gapResumedFrom.get(matchId) !== held) {
        // An update is a delta: applying it over a missed change would leave wrong prices.
        // Ask again from the held position; the missed frames and this one come back in order.
        this.gapResumedFrom.set(matchId, held);
        this.resumeMatch(matchId, frame.sport_id);
        return;
      }
      // Asked once from this position and still not chained: a replay may merge changes
      // (a subscribe_all resume is allowed to), and nothing after the position is skipped,
      // so the merged frame is applied rather than asked for again and again.
    }
    if (frame.type === 'snapshot') {
      this.stats.snapshots += 1;
      if (this.resuming.has(matchId)) this.stats.snapshotsAfterResume += 1;
    } else {
      this.stats.updates += 1;
    }
    this.resuming.delete(matchId);
    const change = applyBookFrame(this.books.get(matchId), frame);
    this.books.set(matchId, change.book);
    this.positions.applied(matchId, frame.seq);
    this.emit('book', {
      matchId,
      book: change.book,
      op: frame.type,
      changed: change.changed,
      removed: change.removed,
    });
  }

  private resumeMatch(matchId: number, sportId: number): void {
    if (this.matches.has(matchId)) {
      this.sendSubscribe(matchId);
      return;
    }
    const scope: AllScope = this.scopes.has(sportId) ? sportId : 'all';
    this.sendSubscribeAll(scope);
  }

  private coveredByAll(sportId: number | undefined): boolean {
    return this.scopes.has('all') || (sportId !== undefined && this.scopes.has(sportId));
  }

  private forget(matchId: number): void {
    this.books.delete(matchId);
    this.gapResumedFrom.delete(matchId);
    this.positions.forget(matchId);
    this.resuming.delete(matchId);
  }
}
