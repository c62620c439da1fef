import { Principal } from '@app/auth';
import type { ChangePosition, LoggedChange } from '@app/messaging';
import { positionedUpdateText, serializeUpdateFrame } from '../book/book-messages';
import type { LeagueInfo, MatchInfo, SportInfo } from '../book/book-messages';
import { type BookChangeListener, type BookConfig, BookReadPort } from '../book/book-read-port';
import type { BookChange, MatchOdds } from '../book/domain/match-odds';
import type { Selection } from '../book/domain/selection';
import type { BookFrame } from './book-frames';
import { type BookReplay, type BookSubscriber, BookSubscriptions } from './book-subscriptions';
import { anOddsPrincipal } from '../../../../test/odds-passthrough/principal-factory';
import { aSelection } from '../../../../test/odds-passthrough/selection-factory';

function selection(market: string, version: number, price = 100): Selection {
  return aSelection({
    market_key: market,
    market_name: `Game - ${market}`,
    price,
    decimal: 2,
    version,
    limit: 500,
  });
}

/**
 * The read port over a book held in memory with its change log; `apply` plays the part of a
 * change arriving from the ingest, appended to the log first.
 */
class InMemoryReplica extends BookReadPort {
  readonly odds = new Map<number, MatchOdds>();
  readonly positions = new Map<number, ChangePosition>();
  readonly log: { seq: number; prevSeq: number | null; matchId: number; sportId: number; text: string }[] =
    [];
  /** Oldest seq still retained; older positions cannot be resumed from. */
  retainedFrom = 1;
  healthy = true;
  private seq = 0;
  private readonly listeners = new Set<BookChangeListener>();

  books(): readonly BookConfig[] {
    return [{ name: 'book', prefix: '/v1/book', grant: 'book' }];
  }

  // The stream reads matches one by one; it never asks for the lists.
  sports(): readonly SportInfo[] {
    return [];
  }

  leagues(): readonly LeagueInfo[] {
    return [];
  }

  matches(): readonly MatchInfo[] {
    return [];
  }

  snapshot(_book: string, matchId: number): MatchOdds | undefined {
    return this.odds.get(matchId);
  }

  matchPosition(_book: string, matchId: number): ChangePosition | undefined {
    return this.positions.get(matchId);
  }

  newestSeq(): number {
    return this.seq;
  }

  matchSport(_book: string, matchId: number): number | undefined {
    return this.odds.get(matchId)?.sport_id;
  }

  matchIds(_book: string, sportId?: number): readonly number[] {
    return [...this.odds.values()]
      .filter((odds) => sportId === undefined || odds.sport_id === sportId)
      .map((odds) => odds.match_id);
  }

  onChange(listener: BookChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  feedHealthy(): boolean {
    return this.healthy;
  }

  /** What the api side's replay reads: retained changes of the scope after a position. */
  readonly replay: BookReplay = (scope, afterSeq) => {
    if (afterSeq + 1 < this.retainedFrom || afterSeq > this.seq) return Promise.resolve(null);
    const changes: LoggedChange[] = this.log
      .filter(
        (entry) =>
          entry.seq > afterSeq &&
          (scope.matchId === undefined || entry.matchId === scope.matchId) &&
          (scope.sportId === undefined || entry.sportId === scope.sportId),
      )
      .map((entry) => ({
        seq: entry.seq,
        prevSeq: entry.prevSeq,
        subject: `odds.book.log.${entry.sportId}.${entry.matchId}`,
        data: new TextEncoder().encode(entry.text),
      }));
    return Promise.resolve(changes);
  };

  apply(matchId: number, sportId: number, selections: Selection[], removed: string[] = []): void {
    const held = this.odds.get(matchId);
    const keys = new Set([...selections.map((s) => s.market_key), ...removed]);
    const kept = (held?.selections ?? []).filter((s) => !keys.has(s.market_key));
    const ts = (held?.ts ?? 0) + 1;
    this.odds.set(matchId, {
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
    const position = { seq: ++this.seq, prevSeq: this.positions.get(matchId)?.seq ?? null };
    this.positions.set(matchId, position);
    const published = serializeUpdateFrame(matchId, sportId, ts, selections, removed);
    this.log.push({ ...position, matchId, sportId, text: published });
    const frame = positionedUpdateText(published, position);
    for (const listener of this.listeners) listener(change, frame, position);
  }
}

class FakeSubscriber implements BookSubscriber {
  readonly sent: BookFrame[] = [];
  readonly frames: Record<string, unknown>[] = [];
  isOpen = true;

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

describe('BookSubscriptions', () => {
  let replica: InMemoryReplica;
  let subscriptions: BookSubscriptions;

  const connect = (sports: number[]) => {
    const client = new FakeSubscriber(anOddsPrincipal(sports));
    subscriptions.connect(client);
    return client;
  };

  beforeEach(() => {
    replica = new InMemoryReplica();
    subscriptions = new BookSubscriptions(replica, 'book', 'book', replica.replay);
    replica.onChange((change, frame, position) => subscriptions.publish(change, frame, position));
    replica.apply(100, 29, [selection('m1', 1), selection('m2', 1)]);
    replica.apply(200, 29, [selection('m1', 1)]);
    replica.apply(300, 33, [selection('m1', 1)]);
  });

  it('answers one match more than the limit with an error frame, and the other matches go on', async () => {
    subscriptions = new BookSubscriptions(replica, 'book', 'book', replica.replay, () => Date.now(), 2);
    const client = connect([29, 33]);
    await subscriptions.subscribe(client, 100);
    await subscriptions.subscribe(client, 200);
    await subscriptions.subscribe(client, 200); // again: not one more
    await subscriptions.subscribe(client, 300);
    expect(client.frames.slice(-1)).toEqual([{ type: 'error', error: 'subscription limit reached' }]);
    client.frames.length = 0;
    replica.apply(100, 29, [selection('m1', 2)]);
    replica.apply(200, 29, [selection('m1', 2)]);
    expect(client.frames.map((frame) => [frame.type, frame.match_id])).toEqual([
      ['update', 100],
      ['update', 200],
    ]);
    subscriptions.unsubscribe(client, 100);
    client.frames.length = 0;
    await subscriptions.subscribe(client, 300);
    expect(client.types()).toEqual(['snapshot']);
  });

  it('sends a snapshot on subscribe, then updates with the book replica bytes, shared by all', async () => {
    const a = connect([29]);
    const b = connect([29]);
    await subscriptions.subscribe(a, 100);
    await subscriptions.subscribe(b, 100);
    replica.apply(100, 29, [selection('m1', 2, 150)], ['m2']);
    expect(a.frames[0]).toEqual({
      type: 'snapshot',
      seq: 1,
      prev_seq: null,
      match_id: 100,
      sport_id: 29,
      ts: 1,
      selections: [selection('m1', 1), selection('m2', 1)],
    });
    expect(a.frames[1]).toEqual({
      type: 'update',
      seq: 4,
      prev_seq: 1,
      match_id: 100,
      sport_id: 29,
      ts: 2,
      selections: [selection('m1', 2, 150)],
      removed_market_keys: ['m2'],
    });
    expect(a.sent[1].data).toBe(b.sent[1].data);
  });

  it('refuses an ungranted sport and an unknown match with error frames, keeping other subscriptions', async () => {
    const client = connect([29]);
    await subscriptions.subscribe(client, 100);
    await subscriptions.subscribe(client, 300);
    await subscriptions.subscribe(client, 999);
    replica.apply(100, 29, [selection('m1', 2)]);
    replica.apply(300, 33, [selection('m1', 2)]);
    expect(client.frames.slice(1, 3)).toEqual([
      { type: 'error', error: 'API key not permitted for sport 33' },
      { type: 'error', error: 'match not found: 999' },
    ]);
    expect(client.types()).toEqual(['snapshot', 'error', 'error', 'update']);
  });

  it('stops a match on unsubscribe', async () => {
    const client = connect([29]);
    await subscriptions.subscribe(client, 100);
    subscriptions.unsubscribe(client, 100);
    replica.apply(100, 29, [selection('m1', 2)]);
    expect(client.types()).toEqual(['snapshot']);
  });

  it('subscribe_all covers granted sports only, including matches that appear later', async () => {
    const client = connect([29]);
    await subscriptions.subscribeAll(client, undefined);
    expect(client.frames.map((frame) => frame.match_id)).toEqual([100, 200]);
    replica.apply(400, 29, [selection('m9', 1)]);
    replica.apply(500, 33, [selection('m9', 1)]);
    replica.apply(400, 29, [selection('m9', 2)]);
    expect(client.frames.slice(2)).toEqual([
      {
        type: 'snapshot',
        seq: 4,
        prev_seq: null,
        match_id: 400,
        sport_id: 29,
        ts: 1,
        selections: [selection('m9', 1)],
      },
      expect.objectContaining({ type: 'update', match_id: 400, ts: 2 }),
    ]);
  });

  it('encodes each match snapshot once for a burst of subscribers, and anew once the match changed', async () => {
    const clients = [connect([29]), connect([29]), connect([29])];
    await subscriptions.subscribeAll(clients[0], undefined);
    await subscriptions.subscribeAll(clients[1], undefined);
    await subscriptions.subscribe(clients[2], 100);
    expect(clients[1].sent[0].data).toBe(clients[0].sent[0].data);
    expect(clients[1].sent[1].data).toBe(clients[0].sent[1].data);
    expect(clients[2].sent[0].data).toBe(clients[0].sent[0].data);
    replica.apply(100, 29, [selection('m1', 2, 150)]);
    const late = connect([29]);
    await subscriptions.subscribe(late, 100);
    expect(late.sent[0].data).not.toBe(clients[0].sent[0].data);
    expect(late.frames[0]).toMatchObject({ type: 'snapshot', seq: 4, prev_seq: 1, ts: 2 });
  });

  it('subscribe_all with a sport narrows it; an ungranted sport subscribes nothing', async () => {
    const client = connect([29, 33]);
    await subscriptions.subscribeAll(client, 33);
    replica.apply(100, 29, [selection('m1', 2)]);
    replica.apply(300, 33, [selection('m1', 2)]);
    expect(client.frames.map((frame) => [frame.type, frame.match_id])).toEqual([
      ['snapshot', 300],
      ['update', 300],
    ]);
    const narrow = connect([29]);
    await subscriptions.subscribeAll(narrow, 33);
    replica.apply(300, 33, [selection('m1', 3)]);
    expect(narrow.frames).toEqual([{ type: 'error', error: 'API key not permitted for sport 33' }]);
  });

  it('sends one frame per change to a client subscribed both ways', async () => {
    const client = connect([29]);
    await subscriptions.subscribe(client, 100);
    await subscriptions.subscribeAll(client, undefined);
    client.frames.length = 0;
    replica.apply(100, 29, [selection('m1', 2)]);
    expect(client.types()).toEqual(['update']);
  });

  it('builds heartbeats with the feed health at the moment of the beat', () => {
    const first = subscriptions.heartbeat(1234);
    replica.healthy = false;
    const second = subscriptions.heartbeat(2234);
    expect([first, second].map((frame) => JSON.parse(frame.data.toString()) as unknown)).toEqual([
      { type: 'heartbeat', ts: 1234, seq: 3, feed_healthy: true },
      { type: 'heartbeat', ts: 2234, seq: 3, feed_healthy: false },
    ]);
  });

  it('forgets a client on disconnect', async () => {
    const client = connect([29]);
    await subscriptions.subscribeAll(client, undefined);
    subscriptions.disconnect(client);
    replica.apply(100, 29, [selection('m1', 2)]);
    expect(client.types()).toEqual(['snapshot', 'snapshot']);
    expect(subscriptions.clientCount).toBe(0);
  });

  describe('resume_after', () => {
    const seqs = (client: FakeSubscriber) =>
      client.frames.map((frame) => [frame.type, frame.match_id, frame.seq]);

    it('replays the changes of the match after the position as updates, then goes on live', async () => {
      replica.apply(100, 29, [selection('m1', 2)]);
      replica.apply(200, 29, [selection('m1', 2)]);
      replica.apply(100, 29, [selection('m2', 2)]);
      const client = connect([29]);
      await subscriptions.subscribe(client, 100, { resumeAfter: 1 });
      replica.apply(100, 29, [selection('m1', 3)]);
      expect(seqs(client)).toEqual([
        ['update', 100, 4],
        ['update', 100, 6],
        ['update', 100, 7],
      ]);
      expect(client.frames[1]).toMatchObject({ prev_seq: 4, selections: [selection('m2', 2)] });
    });

    it('answers a position the log no longer holds, or one ahead of it, with a snapshot', async () => {
      replica.apply(100, 29, [selection('m1', 2)]);
      replica.retainedFrom = 4;
      const old = connect([29]);
      await subscriptions.subscribe(old, 100, { resumeAfter: 1 });
      const ahead = connect([29]);
      await subscriptions.subscribe(ahead, 100, { resumeAfter: 99 });
      expect([seqs(old), seqs(ahead)]).toEqual([[['snapshot', 100, 4]], [['snapshot', 100, 4]]]);
    });

    it('loses and doubles nothing that arrives live while the log is read', async () => {
      const replay: BookReplay = async (scope, afterSeq) => {
        // A change heard live while the first read is on its way back.
        if (afterSeq === 3) replica.apply(100, 29, [selection('m1', 5)]);
        const changes = await replica.replay(scope, afterSeq);
        return afterSeq === 3 ? (changes ?? []).filter((change) => change.seq < 5) : changes;
      };
      // The listener set up before each test publishes to whatever `subscriptions` holds.
      subscriptions = new BookSubscriptions(replica, 'book', 'book', replay);
      replica.apply(100, 29, [selection('m1', 2)]);
      const client = connect([29]);
      await subscriptions.subscribe(client, 100, { resumeAfter: 3 });
      replica.apply(100, 29, [selection('m1', 6)]);
      expect(seqs(client)).toEqual([
        ['update', 100, 4],
        ['update', 100, 5],
        ['update', 100, 6],
      ]);
    });

    it('replays subscribe_all across its matches in seq order, only of granted sports', async () => {
      replica.apply(300, 33, [selection('m1', 2)]);
      replica.apply(200, 29, [selection('m1', 2)]);
      replica.apply(400, 29, [selection('m9', 1)]);
      const client = connect([29]);
      await subscriptions.subscribeAll(client, undefined, { resumeAfter: 3 });
      expect(seqs(client)).toEqual([
        ['update', 200, 5],
        ['update', 400, 6],
      ]);
    });
  });

  describe('conflate_ms', () => {
    beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
    afterEach(() => jest.useRealTimers());

    it('sends the first frame at once, then one merged frame per window with the newest seq', async () => {
      const client = connect([29]);
      await subscriptions.subscribe(client, 100, { conflateMs: 1000 });
      replica.apply(100, 29, [selection('m1', 2, 110)]);
      jest.advanceTimersByTime(300);
      replica.apply(100, 29, [selection('m1', 3, 120)], ['m2']);
      replica.apply(100, 29, [selection('m2', 4, 130)]);
      expect(client.types()).toEqual(['snapshot']);
      jest.advanceTimersByTime(700);
      expect(client.frames[1]).toMatchObject({
        type: 'update',
        seq: 6,
        prev_seq: 5,
        selections: [selection('m1', 3, 120), selection('m2', 4, 130)],
        removed_market_keys: [],
      });
      replica.apply(100, 29, [selection('m1', 5)]);
      expect(client.frames).toHaveLength(2);
      jest.advanceTimersByTime(1000);
      expect(client.frames.map((frame) => frame.seq)).toEqual([1, 6, 7]);
    });

    it('sends nothing to a socket that closed, neither at once nor when a window closes', async () => {
      const conflated = connect([29]);
      const direct = connect([29]);
      await subscriptions.subscribe(conflated, 100, { conflateMs: 1000 });
      await subscriptions.subscribe(direct, 100);
      replica.apply(100, 29, [selection('m1', 2, 110)]);
      jest.advanceTimersByTime(300);
      replica.apply(100, 29, [selection('m1', 3, 120)]);
      conflated.isOpen = false;
      direct.isOpen = false;
      replica.apply(100, 29, [selection('m1', 4, 130)]);
      jest.advanceTimersByTime(1000);
      // The snapshots, then the two changes before the close for the unconflated socket only.
      expect(conflated.frames.map((frame) => frame.type)).toEqual(['snapshot']);
      expect(direct.frames.map((frame) => frame.type)).toEqual(['snapshot', 'update', 'update']);
      expect(direct.frames[2]).toMatchObject({ selections: [selection('m1', 3, 120)] });
    });
  });
});
