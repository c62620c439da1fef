import { Principal } from '@app/auth';
import { type BookConfig, BookView } from '../book/book-view';
import type { BookChange, MatchOdds } from '../book/domain/match-odds';
import type { Selection } from '../book/domain/selection';
import type { BookFrame } from './book-frames';
import { type BookSubscriber, BookSubscriptions } from './book-subscriptions';

function selection(market: string, version: number, price = 100): Selection {
  return {
    market_key: market,
    market_name: `Game - ${market}`,
    period: 0,
    bet_name: 'Home',
    price,
    decimal: 2,
    status: 'unlocked',
    version,
    cutoff_at: '2030-01-01T00:00:00Z',
    limit: 500,
  };
}

/** A book held in memory; `apply` plays the part of a change arriving from the ingest. */
class InMemoryBookView extends BookView {
  readonly matches = new Map<number, MatchOdds>();
  healthy = true;
  private readonly listeners = new Set<(change: BookChange, frame: string) => void>();

  books(): readonly BookConfig[] {
    return [{ name: 'book', prefix: '/v1/book', grant: 'book' }];
  }

  snapshot(_book: string, matchId: number): MatchOdds | undefined {
    return this.matches.get(matchId);
  }

  matchSport(_book: string, matchId: number): number | undefined {
    return this.matches.get(matchId)?.sport_id;
  }

  matchIds(_book: string, sportId?: number): readonly number[] {
    return [...this.matches.values()]
      .filter((odds) => sportId === undefined || odds.sport_id === sportId)
      .map((odds) => odds.match_id);
  }

  onChange(listener: (change: BookChange, frame: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  feedHealthy(): boolean {
    return this.healthy;
  }

  apply(matchId: number, sportId: number, selections: Selection[], removed: string[] = []): void {
    const held = this.matches.get(matchId);
    const keys = new Set([...selections.map((s) => s.market_key), ...removed]);
    const kept = (held?.selections ?? []).filter((s) => !keys.has(s.market_key));
    const ts = (held?.ts ?? 0) + 1;
    this.matches.set(matchId, {
      match_id: matchId,
      sport_id: sportId,
      ts,
      selections: [...kept, ...selections],
    });
    const change: BookChange = {
      book: 'book',
      matchId,
      sportId,
      ts,
      selections,
      removedMarketKeys: removed,
      matchRemoved: false,
      matchAdded: !held,
    };
    const frame = JSON.stringify({
      type: 'update',
      match_id: matchId,
      sport_id: sportId,
      ts,
      selections,
      removed_market_keys: removed,
    });
    for (const listener of this.listeners) listener(change, frame);
  }
}

class FakeSubscriber implements BookSubscriber {
  readonly sent: BookFrame[] = [];
  readonly frames: Record<string, unknown>[] = [];

  constructor(readonly principal: Principal) {}

  send(frame: BookFrame): boolean {
    this.sent.push(frame);
    this.frames.push(JSON.parse(frame.data.toString()) as Record<string, unknown>);
    return true;
  }

  sendText(text: string): boolean {
    this.frames.push(JSON.parse(text) as Record<string, unknown>);
    return true;
  }

  types(): unknown[] {
    return this.frames.map((frame) => frame.type);
  }
}

function principal(sports: number[]): Principal {
  return new Principal({
    keyId: 'k',
    accountId: 'a',
    scopes: ['odds'],
    active: true,
    expiresAt: null,
    fixturesSports: [],
    grants: { book: sports },
  });
}

describe('BookSubscriptions', () => {
  let view: InMemoryBookView;
  let subscriptions: BookSubscriptions;

  const connect = (sports: number[]) => {
    const client = new FakeSubscriber(principal(sports));
    subscriptions.connect(client);
    return client;
  };

  beforeEach(() => {
    view = new InMemoryBookView();
    subscriptions = new BookSubscriptions(view, 'book', 'book');
    view.onChange((change, frame) => subscriptions.publish(change, frame));
    view.apply(100, 29, [selection('m1', 1), selection('m2', 1)]);
    view.apply(200, 29, [selection('m1', 1)]);
    view.apply(300, 33, [selection('m1', 1)]);
  });

  it('sends a snapshot on subscribe, then updates with the book view bytes, shared by all', () => {
    const a = connect([29]);
    const b = connect([29]);
    subscriptions.subscribe(a, 100);
    subscriptions.subscribe(b, 100);
    view.apply(100, 29, [selection('m1', 2, 150)], ['m2']);
    expect(a.frames[0]).toEqual({
      type: 'snapshot',
      match_id: 100,
      sport_id: 29,
      ts: 1,
      selections: [selection('m1', 1), selection('m2', 1)],
    });
    expect(a.frames[1]).toEqual({
      type: 'update',
      match_id: 100,
      sport_id: 29,
      ts: 2,
      selections: [selection('m1', 2, 150)],
      removed_market_keys: ['m2'],
    });
    expect(a.sent[1].data).toBe(b.sent[1].data);
  });

  it('refuses an ungranted sport and an unknown match with error frames, keeping other subscriptions', () => {
    const client = connect([29]);
    subscriptions.subscribe(client, 100);
    subscriptions.subscribe(client, 300);
    subscriptions.subscribe(client, 999);
    view.apply(100, 29, [selection('m1', 2)]);
    view.apply(300, 33, [selection('m1', 2)]);
    expect(client.frames.slice(1, 3)).toEqual([
      { type: 'error', error: 'API key not permitted for sport 33' },
      { type: 'error', error: 'match not found: 999' },
    ]);
    expect(client.types()).toEqual(['snapshot', 'error', 'error', 'update']);
  });

  it('stops a match on unsubscribe', () => {
    const client = connect([29]);
    subscriptions.subscribe(client, 100);
    subscriptions.unsubscribe(client, 100);
    view.apply(100, 29, [selection('m1', 2)]);
    expect(client.types()).toEqual(['snapshot']);
  });

  it('subscribe_all covers granted sports only, including matches that appear later', () => {
    const client = connect([29]);
    subscriptions.subscribeAll(client, undefined);
    expect(client.frames.map((frame) => frame.match_id)).toEqual([100, 200]);
    view.apply(400, 29, [selection('m9', 1)]);
    view.apply(500, 33, [selection('m9', 1)]);
    view.apply(400, 29, [selection('m9', 2)]);
    expect(client.frames.slice(2)).toEqual([
      { type: 'snapshot', match_id: 400, sport_id: 29, ts: 1, selections: [selection('m9', 1)] },
      expect.objectContaining({ type: 'update', match_id: 400, ts: 2 }),
    ]);
  });

  it('subscribe_all with a sport narrows it; an ungranted sport subscribes nothing', () => {
    const client = connect([29, 33]);
    subscriptions.subscribeAll(client, 33);
    view.apply(100, 29, [selection('m1', 2)]);
    view.apply(300, 33, [selection('m1', 2)]);
    expect(client.frames.map((frame) => [frame.type, frame.match_id])).toEqual([
      ['snapshot', 300],
      ['update', 300],
    ]);
    const narrow = connect([29]);
    subscriptions.subscribeAll(narrow, 33);
    view.apply(300, 33, [selection('m1', 3)]);
    expect(narrow.frames).toEqual([{ type: 'error', error: 'API key not permitted for sport 33' }]);
  });

  it('sends one frame per change to a client subscribed both ways', () => {
    const client = connect([29]);
    subscriptions.subscribe(client, 100);
    subscriptions.subscribeAll(client, undefined);
    client.frames.length = 0;
    view.apply(100, 29, [selection('m1', 2)]);
    expect(client.types()).toEqual(['update']);
  });

  it('builds heartbeats with the feed health at the moment of the beat', () => {
    const first = subscriptions.heartbeat(1234);
    view.healthy = false;
    const second = subscriptions.heartbeat(2234);
    expect([first, second].map((frame) => JSON.parse(frame.data.toString()) as unknown)).toEqual([
      { type: 'heartbeat', ts: 1234, feed_healthy: true },
      { type: 'heartbeat', ts: 2234, feed_healthy: false },
    ]);
  });

  it('forgets a client on disconnect', () => {
    const client = connect([29]);
    subscriptions.subscribeAll(client, undefined);
    subscriptions.disconnect(client);
    view.apply(100, 29, [selection('m1', 2)]);
    expect(client.types()).toEqual(['snapshot', 'snapshot']);
    expect(subscriptions.clientCount).toBe(0);
  });
});
