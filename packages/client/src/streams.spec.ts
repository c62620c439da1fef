import { LiveScoresStream } from './live-stream';
import { OddsStream } from './odds-stream';
import type { ConnectionState } from './reconnecting-stream';
import type { SocketLike } from './socket';

/** A socket the test drives: it opens, delivers frames and closes on command. */
class FakeSocket implements SocketLike {
  readyState = 0;
  readonly sent: Record<string, unknown>[] = [];
  closedWith: number | undefined;
  terminated = false;
  onopen: ((event: unknown) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;

  constructor(readonly url: string) {}

  send(data: string): void {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close(code = 1000): void {
    this.closedWith = code;
    this.readyState = 3;
  }
  terminate(): void {
    this.terminated = true;
    this.readyState = 3;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  frame(frame: object): void {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  drop(code = 1006): void {
    this.readyState = 3;
    this.onclose?.({ code, reason: '' });
  }
}

function harness() {
  const sockets: FakeSocket[] = [];
  const socketFactory = (url: string) => {
    const socket = new FakeSocket(url);
    sockets.push(socket);
    return Promise.resolve(socket);
  };
  return { sockets, socketFactory, last: () => sockets[sockets.length - 1] };
}

const flush = () =>
  new Promise<void>((resolve) => jest.requireActual<typeof import('timers')>('timers').setImmediate(resolve));

function liveFrame(op: 'snapshot' | 'update', seq: number, prev: number | null, home: number, matchId = 5) {
  return {
    op,
    seq,
    prev_seq: prev,
    data: {
      match_id: matchId,
      sport: 'soccer',
      score: { home, away: 0 },
      clock: { minute: 10, second: 0, running: true, as_of: new Date(Date.now()).toISOString() },
    },
  };
}

describe('LiveScoresStream', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  async function connected(options: { heartbeatMs?: number } = {}) {
    const h = harness();
    const stream = new LiveScoresStream({
      url: 'ws://h/v1/stream',
      apiKey: 'sk_x',
      socketFactory: h.socketFactory,
      random: () => 0,
      backoff: { initialMs: 100, maxMs: 1_000 },
      ...options,
    });
    const states: ConnectionState[] = [];
    stream.on('connection', (change) => states.push(change.state));
    stream.subscribe(5);
    stream.connect();
    await flush();
    h.last().open();
    return { ...h, stream, states };
  }

  it('asks for heartbeats and subscribes on open', async () => {
    const { last, states } = await connected({ heartbeatMs: 1_000 });
    expect(new URL(last().url).searchParams.get('heartbeat_ms')).toBe('1000');
    expect(last().sent).toEqual([{ action: 'subscribe', match_id: 5 }]);
    expect(states).toEqual(['connecting', 'connected']);
  });

  it('holds the newest state per match and ignores frames that are not newer', async () => {
    const { last, stream } = await connected();
    const seen: number[] = [];
    stream.on('match', ({ state }) => seen.push(state.seq));
    last().frame(liveFrame('snapshot', 10, null, 0));
    last().frame(liveFrame('update', 12, 10, 1));
    last().frame(liveFrame('update', 12, 10, 1));
    last().frame(liveFrame('update', 11, 10, 9));
    expect(seen).toEqual([10, 12]);
    expect(stream.match(5)?.snapshot.score).toEqual({ home: 1, away: 0 });
    expect(stream.stats).toMatchObject({ snapshots: 1, updates: 1, duplicates: 2 });
  });

  it('reconnects after backoff and resumes from the held seq', async () => {
    const { sockets, last, stream, states } = await connected();
    last().frame(liveFrame('snapshot', 10, null, 0));
    last().drop();
    expect(stream.state).toBe('reconnecting');
    jest.advanceTimersByTime(50);
    await flush();
    expect(sockets).toHaveLength(2);
    last().open();
    expect(last().sent).toEqual([{ action: 'subscribe', match_id: 5, resume_after: 10 }]);
    expect(states).toEqual(['connecting', 'connected', 'reconnecting', 'resumed']);
    last().frame(liveFrame('update', 11, 10, 1));
    expect(stream.stats).toMatchObject({ resumedSubscriptions: 1, snapshotsAfterResume: 0 });
  });

  it('backs off longer after every failed attempt, up to the cap', async () => {
    const { sockets, last } = await connected();
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      const before = sockets.length;
      last().drop();
      let waited = 0;
      while (sockets.length === before) {
        jest.advanceTimersByTime(10);
        waited += 10;
        await flush();
      }
      delays.push(waited);
    }
    expect(delays).toEqual([50, 100, 200, 400, 500, 500]);
  });

  it('starts the backoff again once a new socket delivers a frame, not merely opens', async () => {
    const { sockets, last } = await connected();
    const nextDelay = async () => {
      const before = sockets.length;
      last().drop();
      let waited = 0;
      while (sockets.length === before) {
        jest.advanceTimersByTime(10);
        waited += 10;
        await flush();
      }
      return waited;
    };
    expect(await nextDelay()).toBe(50);
    last().open();
    expect(await nextDelay()).toBe(100);
    last().open();
    last().frame({ op: 'heartbeat', ts: 1, seq: 1, feed_healthy: true });
    expect(await nextDelay()).toBe(50);
  });

  it('drops a socket that stays silent for three heartbeat periods and reconnects', async () => {
    const { sockets, stream } = await connected({ heartbeatMs: 1_000 });
    jest.advanceTimersByTime(2_500);
    sockets[0].frame({ op: 'heartbeat', ts: 1, seq: 3, feed_healthy: true });
    expect(stream.isFeedHealthy).toBe(true);
    jest.advanceTimersByTime(2_999);
    expect(sockets[0].terminated).toBe(false);
    jest.advanceTimersByTime(1);
    expect(sockets[0].terminated).toBe(true);
    expect(stream.stats.silentSockets).toBe(1);
    jest.advanceTimersByTime(100);
    await flush();
    expect(sockets).toHaveLength(2);
  });

  it('stops for good when the key is refused', async () => {
    const h = harness();
    const stream = new LiveScoresStream({
      url: 'ws://h/v1/stream',
      apiKey: 'bad',
      socketFactory: h.socketFactory,
    });
    const errors: Error[] = [];
    stream.on('error', (error) => errors.push(error));
    stream.connect();
    await flush();
    h.last().onerror?.({ message: 'Unexpected server response: 401' });
    h.last().drop();
    expect(stream.state).toBe('closed');
    expect(errors[0]).toMatchObject({ status: 401 });
    jest.advanceTimersByTime(60_000);
    await flush();
    expect(h.sockets).toHaveLength(1);
  });

  it('projects the clock of a held soccer match', async () => {
    const { last, stream } = await connected();
    last().frame(liveFrame('snapshot', 10, null, 0));
    expect(stream.clockSeconds(5, Date.now() + 30_000)).toBe(630);
    expect(stream.clockSeconds(6)).toBeUndefined();
  });
});

describe('OddsStream', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  const selection = (key: string, price: number, version: number) => ({
    market_key: key,
    market_name: 'Match - Money Line',
    period: 0,
    bet_name: 'Home',
    price,
    decimal: 2,
    status: 'unlocked',
    version,
    cutoff_at: '2099-01-01T00:00:00Z',
    limit: 100,
  });

  async function connected() {
    const h = harness();
    const stream = new OddsStream({
      url: 'ws://h/v1/book/data',
      apiKey: 'sk_x',
      socketFactory: h.socketFactory,
      random: () => 0,
      backoff: { initialMs: 100, maxMs: 1_000 },
    });
    stream.subscribeAll(29);
    stream.connect();
    await flush();
    h.last().open();
    return { ...h, stream };
  }

  it('keeps books per match from subscribe_all, with version dedupe and removed keys', async () => {
    const { last, stream } = await connected();
    expect(last().sent).toEqual([{ action: 'subscribe_all', sport: 29 }]);
    const base = { match_id: 1, sport_id: 29, ts: 1 };
    last().frame({
      type: 'snapshot',
      seq: 5,
      prev_seq: null,
      ...base,
      selections: [selection('a', 100, 1), selection('b', 200, 1)],
    });
    last().frame({
      type: 'update',
      seq: 6,
      prev_seq: 5,
      ...base,
      selections: [selection('a', 110, 2)],
      removed_market_keys: ['b'],
    });
    const book = stream.book(1)!;
    expect([...book.markets.keys()]).toEqual(['a']);
    expect(book.markets.get('a')![0].price).toBe(110);
  });

  it('resumes subscribe_all from the smallest seq among its matches after a reconnect', async () => {
    const { last, stream } = await connected();
    last().frame({
      type: 'snapshot',
      seq: 8,
      prev_seq: null,
      match_id: 1,
      sport_id: 29,
      ts: 1,
      selections: [],
    });
    last().frame({
      type: 'snapshot',
      seq: 5,
      prev_seq: null,
      match_id: 2,
      sport_id: 29,
      ts: 1,
      selections: [],
    });
    last().drop(1001);
    jest.advanceTimersByTime(50);
    await flush();
    last().open();
    expect(last().sent).toEqual([{ action: 'subscribe_all', sport: 29, resume_after: 5 }]);
    expect(stream.state).toBe('resumed');
  });

  it('does not apply an update after a gap, and asks again from the held seq', async () => {
    const { last, stream } = await connected();
    const base = { match_id: 1, sport_id: 29, ts: 1 };
    last().frame({ type: 'snapshot', seq: 5, prev_seq: null, ...base, selections: [selection('a', 100, 1)] });
    last().frame({
      type: 'update',
      seq: 9,
      prev_seq: 7,
      ...base,
      selections: [selection('a', 130, 3)],
      removed_market_keys: [],
    });
    expect(stream.book(1)!.markets.get('a')![0].price).toBe(100);
    expect(stream.stats.gaps).toBe(1);
    expect(last().sent.at(-1)).toEqual({ action: 'subscribe_all', sport: 29, resume_after: 5 });

    // The replay merges changes, so its frame still does not chain: applied, not asked for again.
    last().frame({
      type: 'update',
      seq: 9,
      prev_seq: 7,
      ...base,
      selections: [selection('a', 130, 3)],
      removed_market_keys: [],
    });
    expect(stream.book(1)!.markets.get('a')![0].price).toBe(130);
    expect(last().sent).toHaveLength(2);
    expect(stream.stats.gaps).toBe(2);
  });
});
