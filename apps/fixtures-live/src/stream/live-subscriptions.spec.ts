import { Principal } from '@app/auth';
import { LiveMatchDirectory, type VisibleMatch } from '../live/live-match-directory';
import { conflateLiveFrames, type LiveFrame } from './live-frames';
import { type LiveSubscriber, LiveSubscriptions } from './live-subscriptions';

class InMemoryDirectory extends LiveMatchDirectory {
  readonly matches = new Map<number, VisibleMatch>();
  readonly states = new Map<number, string>();
  failing = false;

  findVisibleMatch(matchId: number): Promise<VisibleMatch | null> {
    if (this.failing) return Promise.reject(new Error('database down'));
    return Promise.resolve(this.matches.get(matchId) ?? null);
  }

  latestFrameData(matchId: number): Promise<string | null> {
    return Promise.resolve(this.states.get(matchId) ?? null);
  }
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
  let subscriptions: LiveSubscriptions;

  beforeEach(() => {
    directory = new InMemoryDirectory();
    directory.matches.set(1, { id: 1, sportId: 10 });
    directory.matches.set(2, { id: 2, sportId: 10 });
    directory.matches.set(3, { id: 3, sportId: 20 });
    subscriptions = new LiveSubscriptions(directory);
  });

  it('sends the stored state as a snapshot at once, then updates carrying the published bytes', async () => {
    directory.states.set(1, state(1, 10));
    const client = new FakeSubscriber(principal([10]));
    await subscriptions.handleFrame(client, '{"action":"subscribe","match_id":1}');
    subscriptions.publish(1, state(1, 11));
    expect(client.frames).toEqual([
      { op: 'snapshot', data: { match_id: 1, sport: 'soccer', minute: 10 } },
      { op: 'update', data: { match_id: 1, sport: 'soccer', minute: 11 } },
    ]);
  });

  it('makes the first frame of a match that is not live yet a snapshot, when it goes live', async () => {
    const client = new FakeSubscriber(principal([10]));
    await subscriptions.handleFrame(client, '{"action":"subscribe","match_id":2}');
    expect(client.frames).toEqual([]);
    subscriptions.publish(2, state(2, 0));
    subscriptions.publish(2, state(2, 1));
    expect(client.frames.map((frame) => (frame as { op: string }).op)).toEqual(['snapshot', 'update']);
  });

  it('sends nothing for a Test at close of play until play resumes, then the resumed state as the snapshot', async () => {
    directory.matches.set(4, { id: 4, sportId: 10, closeOfPlay: true });
    directory.states.set(4, state(4, 90));
    const client = new FakeSubscriber(principal([10]));
    await subscriptions.handleFrame(client, '{"action":"subscribe","match_id":4}');
    expect(client.frames).toEqual([]);
    subscriptions.publish(4, state(4, 91));
    expect(client.frames).toEqual([{ op: 'snapshot', data: { match_id: 4, sport: 'soccer', minute: 91 } }]);
  });

  it('serialises a change once for all subscribers of the match', async () => {
    const a = new FakeSubscriber(principal([10]));
    const b = new FakeSubscriber(principal([10]));
    directory.states.set(1, state(1, 1));
    await subscriptions.handleFrame(a, '{"action":"subscribe","match_id":1}');
    await subscriptions.handleFrame(b, '{"action":"subscribe","match_id":1}');
    subscriptions.publish(1, state(1, 2));
    expect(a.sent[1].data).toBe(b.sent[1].data);
  });

  it('holds several subscriptions per client and stops one on unsubscribe', async () => {
    const client = new FakeSubscriber(principal([10]));
    await subscriptions.handleFrame(client, '{"action":"subscribe","match_id":1}');
    await subscriptions.handleFrame(client, '{"action":"subscribe","match_id":2}');
    subscriptions.publish(1, state(1, 5));
    subscriptions.publish(2, state(2, 5));
    await subscriptions.handleFrame(client, '{"action":"unsubscribe","match_id":1}');
    subscriptions.publish(1, state(1, 6));
    subscriptions.publish(2, state(2, 6));
    expect(client.frames).toEqual([
      { op: 'snapshot', data: { match_id: 1, sport: 'soccer', minute: 5 } },
      { op: 'snapshot', data: { match_id: 2, sport: 'soccer', minute: 5 } },
      { op: 'update', data: { match_id: 2, sport: 'soccer', minute: 6 } },
    ]);
    expect(subscriptions.matchCount).toBe(1);
  });

  it('answers nonexistent and out-of-allowlist matches alike, and keeps other subscriptions', async () => {
    const client = new FakeSubscriber(principal([10]));
    await subscriptions.handleFrame(client, '{"action":"subscribe","match_id":1}');
    await subscriptions.handleFrame(client, '{"action":"subscribe","match_id":3}');
    await subscriptions.handleFrame(client, '{"action":"subscribe","match_id":99}');
    subscriptions.publish(1, state(1, 1));
    subscriptions.publish(3, state(3, 1));
    expect(client.frames).toEqual([
      { op: 'error', error: 'match not found: 3' },
      { op: 'error', error: 'match not found: 99' },
      { op: 'snapshot', data: { match_id: 1, sport: 'soccer', minute: 1 } },
    ]);
  });

  it.each([
    ['{"action":', 'malformed JSON: the frame is not valid JSON'],
    ['{"action":"watch","match_id":1}', 'unknown action: "watch" (expected subscribe, unsubscribe)'],
    ['{"action":"subscribe","match_id":"1"}', 'invalid match_id: expected an integer'],
    ['{"action":"subscribe"}', 'missing field: match_id'],
  ])('names the problem of %p in an error frame', async (text, error) => {
    const client = new FakeSubscriber(principal([10]));
    await subscriptions.handleFrame(client, text);
    expect(client.frames).toEqual([{ op: 'error', error }]);
  });

  it('reports a directory failure as a retryable error, not a missing match', async () => {
    directory.failing = true;
    const client = new FakeSubscriber(principal([10]));
    await subscriptions.handleFrame(client, '{"action":"subscribe","match_id":1}');
    expect(client.frames).toEqual([
      { op: 'error', error: 'temporarily unable to subscribe to match 1; try again' },
    ]);
    expect(subscriptions.matchCount).toBe(0);
  });

  it("applies a client's frames in order, so an unsubscribe right after a subscribe wins", async () => {
    directory.states.set(1, state(1, 1));
    const client = new FakeSubscriber(principal([10]));
    void subscriptions.receive(client, '{"action":"subscribe","match_id":1}');
    void subscriptions.receive(client, '{"action":"subscribe","match_id":99}');
    await subscriptions.receive(client, '{"action":"unsubscribe","match_id":1}');
    subscriptions.publish(1, state(1, 2));
    expect(client.frames).toEqual([
      { op: 'snapshot', data: { match_id: 1, sport: 'soccer', minute: 1 } },
      { op: 'error', error: 'match not found: 99' },
    ]);
    expect(subscriptions.matchCount).toBe(0);
  });

  it('forgets a match once its last subscriber leaves, and ignores unchanged states', async () => {
    const client = new FakeSubscriber(principal([10]));
    await subscriptions.handleFrame(client, '{"action":"subscribe","match_id":1}');
    subscriptions.publish(1, state(1, 1));
    subscriptions.publish(1, state(1, 1));
    expect(client.frames).toHaveLength(1);
    subscriptions.disconnect(client);
    expect(subscriptions.matchCount).toBe(0);
  });

  it('sends after a resync only what changed while the replica could not hear', async () => {
    const client = new FakeSubscriber(principal([10]));
    directory.states.set(1, state(1, 1));
    await subscriptions.handleFrame(client, '{"action":"subscribe","match_id":1}');
    await subscriptions.resync();
    directory.states.set(1, state(1, 2));
    await subscriptions.resync();
    expect(client.frames.map((frame) => (frame as { op: string }).op)).toEqual(['snapshot', 'update']);
  });
});

describe('conflateLiveFrames', () => {
  it('keeps a waiting snapshot a snapshot, with the newest state', async () => {
    const directory = new InMemoryDirectory();
    directory.matches.set(1, { id: 1, sportId: 10 });
    const subscriptions = new LiveSubscriptions(directory);
    const client = new FakeSubscriber(principal([10]));
    await subscriptions.handleFrame(client, '{"action":"subscribe","match_id":1}');
    subscriptions.publish(1, state(1, 1));
    subscriptions.publish(1, state(1, 2));
    const [snapshot, update] = client.sent;
    expect(JSON.parse(conflateLiveFrames(snapshot, update).data.toString())).toEqual({
      op: 'snapshot',
      data: { match_id: 1, sport: 'soccer', minute: 2 },
    });
    expect(conflateLiveFrames(update, update)).toBe(update);
  });
});
