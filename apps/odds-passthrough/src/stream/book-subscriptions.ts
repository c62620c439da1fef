import type { Principal } from '@app/auth';
import type { BookView } from '../book/book-view';
import type { BookChange } from '../book/domain/match-odds';
import {
  type BookFrame,
  errorFrameText,
  heartbeatFrame,
  type MatchUpdate,
  snapshotFrame,
  updateFrame,
} from './book-frames';

/** A connected client as the subscriptions see it (a StreamConnection in production). */
export interface BookSubscriber {
  readonly principal: Principal;
  send(frame: BookFrame): boolean;
  sendText(text: string): boolean;
}

interface ClientState {
  readonly matches: Set<number>;
  /** subscribe_all without a sport: every granted sport, now and later. */
  allSports: boolean;
  /** subscribe_all with a sport: those sports (each granted). */
  readonly sports: Set<number>;
}

/**
 * The stream of one sportsbook on this replica: who follows which match or
 * sport, and the fan-out of each change the book view applies. An update is
 * encoded once per change and the same bytes go to every recipient.
 */
export class BookSubscriptions {
  private readonly clients = new Map<BookSubscriber, ClientState>();
  private readonly byMatch = new Map<number, Set<BookSubscriber>>();
  /** Clients with a subscribe_all, checked against each change's sport. */
  private readonly wide = new Set<BookSubscriber>();

  constructor(
    private readonly view: BookView,
    private readonly book: string,
    private readonly grant: string,
  ) {}

  get clientCount(): number {
    return this.clients.size;
  }

  /** Match subscriptions plus subscribe_all subscriptions held on this replica. */
  get subscriptionCount(): number {
    let count = this.wide.size;
    for (const state of this.clients.values()) count += state.matches.size;
    return count;
  }

  connect(subscriber: BookSubscriber): void {
    this.clients.set(subscriber, { matches: new Set(), allSports: false, sports: new Set() });
  }

  disconnect(subscriber: BookSubscriber): void {
    const state = this.clients.get(subscriber);
    if (!state) return;
    for (const matchId of state.matches) this.leave(subscriber, matchId);
    this.wide.delete(subscriber);
    this.clients.delete(subscriber);
  }

  /** Fans out one applied change; `serialized` is its update frame, shared by every recipient. */
  publish(change: BookChange, serialized: string): void {
    if (change.book !== this.book) return;
    let update: BookFrame | undefined;
    let snapshot: BookFrame | undefined;
    const explicit = this.byMatch.get(change.matchId);
    for (const subscriber of explicit ?? []) subscriber.send((update ??= toUpdateFrame(change, serialized)));
    for (const subscriber of this.wide) {
      if (explicit?.has(subscriber)) continue;
      const state = this.clients.get(subscriber);
      if (!state || !this.covers(subscriber.principal, state, change.sportId)) continue;
      // A match that appears later in a subscribe_all starts, like any other, with a snapshot.
      if (change.matchAdded && !change.matchRemoved) {
        snapshot ??= this.snapshotFrame(change.matchId);
        if (snapshot) {
          subscriber.send(snapshot);
          continue;
        }
      }
      subscriber.send((update ??= toUpdateFrame(change, serialized)));
    }
    if (change.matchRemoved && explicit) {
      for (const subscriber of explicit) this.clients.get(subscriber)?.matches.delete(change.matchId);
      this.byMatch.delete(change.matchId);
    }
  }

  /** The book's heartbeat at `ts`: built once per beat for every client of the same period. */
  heartbeat(ts: number): BookFrame {
    return heartbeatFrame(ts, this.view.feedHealthy(this.book));
  }

  /** Follows one match: a snapshot now, then its updates; an unknown or ungranted match gets an error frame. */
  subscribe(subscriber: BookSubscriber, matchId: number): void {
    const state = this.clients.get(subscriber);
    if (!state) return;
    const sportId = this.view.matchSport(this.book, matchId);
    const odds = sportId === undefined ? undefined : this.view.snapshot(this.book, matchId);
    if (sportId === undefined || !odds) {
      subscriber.sendText(errorFrameText(`match not found: ${matchId}`));
      return;
    }
    if (!subscriber.principal.canSeeSportsbookSport(this.grant, sportId)) {
      subscriber.sendText(errorFrameText(`API key not permitted for sport ${sportId}`));
      return;
    }
    state.matches.add(matchId);
    let followers = this.byMatch.get(matchId);
    if (!followers) {
      followers = new Set();
      this.byMatch.set(matchId, followers);
    }
    followers.add(subscriber);
    subscriber.send(snapshotFrame(odds));
  }

  unsubscribe(subscriber: BookSubscriber, matchId: number): void {
    if (this.clients.get(subscriber)?.matches.delete(matchId)) this.leave(subscriber, matchId);
  }

  /** Follows every granted sport (now and later), or one sport: a snapshot of each match now, then changes. */
  subscribeAll(subscriber: BookSubscriber, sportId: number | undefined): void {
    const state = this.clients.get(subscriber);
    if (!state) return;
    if (sportId !== undefined && !subscriber.principal.canSeeSportsbookSport(this.grant, sportId)) {
      subscriber.sendText(errorFrameText(`API key not permitted for sport ${sportId}`));
      return;
    }
    if (sportId === undefined) state.allSports = true;
    else state.sports.add(sportId);
    this.wide.add(subscriber);
    for (const matchId of this.view.matchIds(this.book, sportId)) {
      const odds = this.view.snapshot(this.book, matchId);
      if (odds && subscriber.principal.canSeeSportsbookSport(this.grant, odds.sport_id)) {
        subscriber.send(snapshotFrame(odds));
      }
    }
  }

  private covers(principal: Principal, state: ClientState, sportId: number): boolean {
    return (
      (state.allSports || state.sports.has(sportId)) && principal.canSeeSportsbookSport(this.grant, sportId)
    );
  }

  private snapshotFrame(matchId: number): BookFrame | undefined {
    const odds = this.view.snapshot(this.book, matchId);
    return odds ? snapshotFrame(odds) : undefined;
  }

  private leave(subscriber: BookSubscriber, matchId: number): void {
    const followers = this.byMatch.get(matchId);
    if (!followers) return;
    followers.delete(subscriber);
    if (followers.size === 0) this.byMatch.delete(matchId);
  }
}

function toUpdateFrame(change: BookChange, serialized: string): BookFrame {
  const update: MatchUpdate = {
    match_id: change.matchId,
    sport_id: change.sportId,
    ts: change.ts,
    selections: change.selections,
    removed_market_keys: change.removedMarketKeys,
  };
  return updateFrame(update, serialized);
}
