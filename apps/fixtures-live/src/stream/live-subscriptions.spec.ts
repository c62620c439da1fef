import { Principal } from '@app/auth';
import type { ChangePosition, LoggedChange } from '@app/messaging';
import { LiveMatchDirectory, type StoredFrame, type VisibleMatch } from '../live/live-match-directory';
import { conflateLiveFrames, type LiveFrame } from './live-frames';
import { type ChangeReplay, type LiveSubscriber, LiveSubscriptions } from './live-subscriptions';

class InMemoryDirectory extends LiveMatchDirectory {
  readonly matches = new Map<number, VisibleMatch>();
  readonly states = new Map<number, StoredFrame>();
  failing = false;

  findVisibleMatch(matchId: number): Promise<VisibleMatch | null> {
    if (this.failing) return Promise.reject(new Error('database down'));
    return Promise.resolve(this.matches.get(matchId) ?? null);
  }

  latestFrame(matchId: number): Promise<StoredFrame | null> {
    return Promise.resolve(this.states.get(matchId) ?? null);
  }
}

/** A change log in memory: every change of every match, `seq` growing across matches. */
class InMemoryLog {
  readonly changes: Array<LoggedChange & { matchId: number }> = [];
  /** Changes older than this were dropped by retention. */
  firstSeq = 1;
  /** Resolves replays only when released, to publish live changes while one runs. */
  gate?: Promise<void>;

  append(matchId: number, payload: string): ChangePosition {
    const prev = this.changes.filter((change) => change.matchId === matchId).at(-1);
    const position = { seq: this.changes.length + 1, prevSeq: prev?.seq ?? null };
    this.changes.push({ ...position, matchId, subject: `m.${matchId}`, data: Buffer.from(payload) });
    return position;
  }

  readonly replay: ChangeReplay = async (match, afterSeq) => {
    await this.gate;
    if (afterSeq + 1 < this.firstSeq || afterSeq > this.changes.length) return null;
    return this.changes.filter((change) => change.matchId === match.id && change.seq > afterSeq);
  };
}

class FakeSubscriber implements LiveSubscriber {
  readonly frames: unknown[] = [];
  readonly sent: LiveFrame[] = [];
  isOpen = true;

  constructor(readonly principal: Principal) {}

  send(frame: LiveFrame): boolean {
    this.sent.push(frame);
    this.frames.push(JSON.parse(frame.data.toString()));
    return true;
  }

  sendText(text: string): boolean {
    this.frames.push(JSON.parse(text));
    return true;
  }
}

function principal(fixturesSports: number[]): Principal {
  return new Principal({
    keyId: 'k',
    accountId: 'a',
    scopes: ['live_scores_statistics'],
    active: true,
    expiresAt: null,
    fixturesSports,
    grants: {},
  });
}

const state = (matchId: number, minute: number) =>
  JSON.stringify({ match_id: matchId, sport: 'soccer', minute });

describe('LiveSubscriptions', () => {
  let directory: InMemoryDirectory;
  let log: InMemoryLog;
  let subscriptions: LiveSubscriptions;

  beforeEach(() => {
    directory = new InMemoryDirectory();
    directory.matches.set(1, { id: 1, sportId: 10 });
    directory.matches.set(2, { id: 2, sportId: 10 });
    directory.matches.set(3, { id: 3, sportId: 20 });
    log = new InMemoryLog();
    subscriptions = new LiveSubscriptions(directory, log.replay);
  });

  /** The ingest's way: log the state, then publish it with its position. */
  function publish(matchId: number, minute: number): ChangePosition {
    const payload = state(matchId, minute);
    const position = log.append(matchId, payload);
    subscriptions.publish(matchId, payload, position);
    return position;
  }

  function store(matchId: number, minute: number): void {
    const payload = state(matchId, minute);
    directory.states.set(matchId, { data: payload, position: log.append(matchId, payload) });
  }

  const frameOf = (op: string, seq: number, prevSeq: number | null, matchId: number, minute: number) => ({
    op,
    seq,
    prev_seq: prevSeq,
    data: { match_id: matchId, sport: 'soccer', minute },
  });

  it('sends the stored state as a snapshot at once, then updates carrying the published bytes', async () => {
    store(1, 10);
    const client = new FakeSubscriber(principal([10]));
    await subscriptions.subscribe(client, 1);
    publish(1, 11);
    expect(client.frames).toEqual([frameOf('snapshot', 1, null, 1, 10), frameOf('update', 2, 1, 1, 11)]);
  });

  it('answers one match more than the limit with an error frame, and the other matches go on', async () => {
    const limited = new LiveSubscriptions(directory, log.replay, () => Date.now(), 2);
    subscriptions = limited;
    store(1, 10);
    store(2, 20);
    const client = new FakeSubscriber(principal([10, 20]));
    await limited.subscribe(client, 1);
    await limited.subscribe(client, 2);
    await limited.subscribe(client, 2); // again: not one more
    await limited.subscribe(client, 3);
    expect(client.frames.slice(-1)).toEqual([{ op: 'error', error: 'subscription limit reached' }]);
    expect(limited.subscriptionCount).toBe(2);
    client.frames.length = 0;
    publish(1, 11);
    publish(2, 21);
    const updates = client.frames as Array<{ op: string; data: { match_id: number; minute: number } }>;
    expect(updates.map((frame) => [frame.op, frame.data.match_id, frame.data.minute])).toEqual([
      ['update', 1, 11],
      ['update', 2, 21],
    ]);
    limited.unsubscribe(client, 1);
    client.frames.length = 0;
    await limited.subscribe(client, 3);
    expect(limited.subscriptionCount).toBe(2);
    expect(client.frames).toEqual([]);
  });

  it('makes the first frame of a match that is not live yet a snapshot, when it goes live', async () => {
    const client = new FakeSubscriber(principal([10]));
    await subscriptions.subscribe(client, 2);
    expect(client.frames).toEqual([]);
    publish(2, 0);
    publish(2, 1);
    expect(client.frames.map((frame) => (frame as { op: string }).op)).toEqual(['snapshot', 'update']);
  });

  it('sends nothing for a Test at close of play until play resumes, then the resumed state as the snapshot', async () => {
    directory.matches.set(4, { id: 4, sportId: 10, closeOfPlay: true });
    store(4, 90);
    const client = new FakeSubscriber(principal([10]));
    await subscriptions.subscribe(client, 4);
    expect(client.frames).toEqual([]);
    publish(4, 91);
    expect(client.frames).toEqual([frameOf('snapshot', 2, 1, 4, 91)]);
  });

  it('serialises a change once for all subscribers of the match', async () => {
    const a = new FakeSubscriber(principal([10]));
    const b = new FakeSubscriber(principal([10]));
    store(1, 1);
    await subscriptions.subscribe(a, 1);
    await subscriptions.subscribe(b, 1);
    publish(1, 2);
    expect(a.sent[1].data).toBe(b.sent[1].data);
  });

  it('holds several subscriptions per client and stops one on unsubscribe', async () => {
    const client = new FakeSubscriber(principal([10]));
    await subscriptions.subscribe(client, 1);
    await subscriptions.subscribe(client, 2);
    publish(1, 5);
    publish(2, 5);
    subscriptions.unsubscribe(client, 1);
    publish(1, 6);
    publish(2, 6);
    expect(client.frames).toEqual([
      frameOf('snapshot', 1, null, 1, 5),
      frameOf('snapshot', 2, null, 2, 5),
      frameOf('update', 4, 2, 2, 6),
    ]);
    expect(subscriptions.matchCount).toBe(1);
  });

  it('answers nonexistent and out-of-allowlist matches alike, and keeps other subscriptions', async () => {
    const client = new FakeSubscriber(principal([10]));
    await subscriptions.subscribe(client, 1);
    await subscriptions.subscribe(client, 3);
    await subscriptions.subscribe(client, 99);
    publish(1, 1);
    publish(3, 1);
    expect(client.frames).toEqual([
      { op: 'error', error: 'match not found: 3' },
      { op: 'error', error: 'match not found: 99' },
      frameOf('snapshot', 1, null, 1, 1),
    ]);
  });

  it('reports a directory failure as a retryable error, not a missing match', async () => {
    directory.failing = true;
    const client = new FakeSubscriber(principal([10]));
    await subscriptions.subscribe(client, 1);
    expect(client.frames).toEqual([
      { op: 'error', error: 'temporarily unable to subscribe to match 1; try again' },
    ]);
    expect(subscriptions.matchCount).toBe(0);
  });

  it('forgets a match once its last subscriber leaves, and ignores states not newer than the last', async () => {
    const client = new FakeSubscriber(principal([10]));
    await subscriptions.subscribe(client, 1);
    const first = publish(1, 1);
    subscriptions.publish(1, state(1, 1), first);
    subscriptions.publish(1, state(1, 0), { seq: first.seq - 1, prevSeq: null });
    expect(client.frames).toHaveLength(1);
    subscriptions.disconnect(client);
    expect(subscriptions.matchCount).toBe(0);
  });

  it('resumes from a retained position with the missed changes as updates and no snapshot', async () => {
    publish(1, 1);
    publish(2, 1);
    publish(1, 2);
    publish(1, 3);
    const client = new FakeSubscriber(principal([10]));
    await subscriptions.subscribe(client, 1, { resumeAfter: 1 });
    publish(1, 4);
    expect(client.frames).toEqual([
      frameOf('update', 3, 1, 1, 2),
      frameOf('update', 4, 3, 1, 3),
      frameOf('update', 5, 4, 1, 4),
    ]);
  });

  it('answers a position the log no longer holds, or one ahead of it, with a snapshot', async () => {
    store(1, 1);
    log.firstSeq = 5;
    const stale = new FakeSubscriber(principal([10]));
    await subscriptions.subscribe(stale, 1, { resumeAfter: 2 });
    const ahead = new FakeSubscriber(principal([10]));
    await subscriptions.subscribe(ahead, 1, { resumeAfter: 99 });
    expect(stale.frames).toEqual([frameOf('snapshot', 1, null, 1, 1)]);
    expect(ahead.frames).toEqual([frameOf('snapshot', 1, null, 1, 1)]);
  });

  it('holds live changes while a replay runs, then sends each change once, in seq order', async () => {
    publish(1, 1);
    publish(1, 2);
    const watcher = new FakeSubscriber(principal([10]));
    await subscriptions.subscribe(watcher, 1);
    let release = () => {};
    log.gate = new Promise((resolve) => (release = resolve));
    const client = new FakeSubscriber(principal([10]));
    const resuming = subscriptions.subscribe(client, 1, { resumeAfter: 1 });
    await Promise.resolve();
    publish(1, 3);
    publish(1, 4);
    release();
    await resuming;
    publish(1, 5);
    expect(client.frames).toEqual([
      frameOf('update', 2, 1, 1, 2),
      frameOf('update', 3, 2, 1, 3),
      frameOf('update', 4, 3, 1, 4),
      frameOf('update', 5, 4, 1, 5),
    ]);
  });

  it('sends at most one frame per conflate_ms window, with the newest state and its seq', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    try {
      const client = new FakeSubscriber(principal([10]));
      const every = new FakeSubscriber(principal([10]));
      await subscriptions.subscribe(client, 1, { conflateMs: 1_000 });
      await subscriptions.subscribe(every, 1);
      publish(1, 1);
      publish(1, 2);
      jest.advanceTimersByTime(400);
      publish(1, 3);
      expect(client.frames).toEqual([frameOf('snapshot', 1, null, 1, 1)]);
      jest.advanceTimersByTime(600);
      expect(client.frames).toEqual([frameOf('snapshot', 1, null, 1, 1), frameOf('update', 3, 2, 1, 3)]);
      jest.advanceTimersByTime(5_000);
      publish(1, 4);
      expect(client.frames).toHaveLength(3);
      expect(every.frames).toHaveLength(4);
    } finally {
      jest.useRealTimers();
    }
  });

  it('sends after a resync only what changed while the replica could not hear', async () => {
    const client = new FakeSubscriber(principal([10]));
    store(1, 1);
    await subscriptions.subscribe(client, 1);
    await subscriptions.resync();
    store(1, 2);
    await subscriptions.resync();
    expect(client.frames.map((frame) => (frame as { op: string }).op)).toEqual(['snapshot', 'update']);
  });
});

describe('conflateLiveFrames', () => {
  it('keeps a waiting snapshot a snapshot, with the newest state', async () => {
    const directory = new InMemoryDirectory();
    directory.matches.set(1, { id: 1, sportId: 10 });
    const log = new InMemoryLog();
    const subscriptions = new LiveSubscriptions(directory, log.replay);
    const client = new FakeSubscriber(principal([10]));
    await subscriptions.subscribe(client, 1);
    subscriptions.publish(1, state(1, 1), log.append(1, state(1, 1)));
    subscriptions.publish(1, state(1, 2), log.append(1, state(1, 2)));
    const [snapshot, update] = client.sent;
    expect(JSON.parse(conflateLiveFrames(snapshot, update).data.toString())).toEqual({
      op: 'snapshot',
      seq: 2,
      prev_seq: 1,
      data: { match_id: 1, sport: 'soccer', minute: 2 },
    });
    expect(conflateLiveFrames(update, update)).toBe(update);
  });
});
