import type { INestApplication } from '@nestjs/common';
import { testCatalog } from '../fixtures-live/catalog-factory';
import { bootAgainst, catalogPolls, database, matchIdOf } from '../fixtures-live/harness';
import { cricketState, FakeLivescores, soccerState } from '../support/fake-livescores';
import { waitFor } from '../support/wait-for';
import { type IsolatedStack, isolatedStack } from './support/isolated-stack';
import { type Frame, listen, refusedHandshake, StreamClient } from './support/stream-client';

const dataOf = (frame: Frame) => frame.data as Record<string, unknown> & { match_id: number };
const isFrame = (op: string, match: number, home?: number) => (frame: Frame) =>
  frame.op === op &&
  dataOf(frame).match_id === match &&
  (home === undefined || (dataOf(frame).score as { home: number }).home === home);

/** The live-score stream `/v1/stream` against the real app, PostgreSQL, NATS and a fake provider. */
describe('fixtures stream /v1/stream', () => {
  const catalog = testCatalog();
  const fake = new FakeLivescores();
  const apps: INestApplication[] = [];
  const clients: StreamClient[] = [];
  let stack: IsolatedStack;
  let url: string;
  let both: string;
  let soccerOnly: string;
  let restOnly: string;
  const ids = { arsChe: 0, livTot: 0, suspended: 0, t20: 0, test: 0 };
  let goals = 0;

  /** Pushes a new soccer state (a goal more each time, so every push is a real change). */
  function goal(statId: string): number {
    goals += 1;
    fake.push(statId, soccerState({ score: { home: goals, away: 0 } }));
    return goals;
  }

  async function open(key: string, base = url): Promise<StreamClient> {
    const client = await StreamClient.open(`${base}/v1/stream?key=${key}`);
    clients.push(client);
    return client;
  }

  async function boot(env: Record<string, string>): Promise<{ app: INestApplication; url: string }> {
    const { app } = await bootAgainst(fake, { env: { ...stack.env, ...env } });
    apps.push(app);
    return { app, url: await listen(app) };
  }

  beforeAll(async () => {
    stack = await isolatedStack('fixtures_stream');
    fake.setCatalog(catalog.sports);
    await fake.start();
    const main = await boot({ ROLE: 'all' });
    url = main.url;
    await catalogPolls(main.app);
    for (const name of Object.keys(ids) as Array<keyof typeof ids>) {
      ids[name] = await matchIdOf(main.app, catalog.ids[name].id);
    }
    [both, soccerOnly, restOnly] = await Promise.all([
      stack.issueKey({ sports: 'soccer,cricket', scopes: 'live_scores_statistics' }),
      stack.issueKey({ sports: 'soccer', scopes: 'live_scores_statistics' }),
      stack.issueKey({ sports: 'soccer,cricket', scopes: 'live_scores,fixtures' }),
    ]);
    // The live feed must be connected before states are pushed, or they only arrive on its next connect.
    await waitFor(() => fake.liveClients > 0, { timeoutMs: 10_000, what: 'the live feed to connect' });
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) client.close();
    for (const app of apps.reverse()) await app.close();
    await fake.stop();
    await stack?.drop();
  });

  it('refuses handshakes with 401/403 and a {"detail"} body, without upgrading', async () => {
    await expect(refusedHandshake(`${url}/v1/stream`)).resolves.toEqual({
      status: 401,
      body: { detail: 'missing API key: send it in the X-API-Key header' },
    });
    await expect(
      refusedHandshake(`${url}/v1/stream?key=sk_notarealkeynotarealkeynotareal1`),
    ).resolves.toEqual({
      status: 401,
      body: { detail: 'invalid or inactive API key' },
    });
    await expect(refusedHandshake(`${url}/v1/stream?key=${restOnly}`)).resolves.toEqual({
      status: 403,
      body: { detail: 'missing required scope: live_scores_statistics' },
    });
    const byHeader = await StreamClient.open(`${url}/v1/stream`, { 'X-API-Key': soccerOnly });
    clients.push(byHeader);
    expect(byHeader.isOpen).toBe(true);
  });

  it('sends a snapshot first (when the match goes live), then updates, for several subscriptions', async () => {
    const client = await open(both);
    client.send({ action: 'subscribe', match_id: ids.arsChe });
    client.send({ action: 'subscribe', match_id: ids.livTot });
    const first = goal(catalog.ids.arsChe.stat_id);
    const snapshot = await client.next(isFrame('snapshot', ids.arsChe, first));
    expect(dataOf(snapshot)).toEqual(
      expect.objectContaining({
        match_id: ids.arsChe,
        sport: 'soccer',
        v: 1,
        score: { home: first, away: 0 },
      }),
    );
    const second = goal(catalog.ids.arsChe.stat_id);
    await client.next(isFrame('update', ids.arsChe, second));
    const other = goal(catalog.ids.livTot.stat_id);
    await client.next(isFrame('snapshot', ids.livTot, other));
    expect(client.frames.filter((frame) => dataOf(frame).match_id === ids.arsChe).map((f) => f.op)).toEqual([
      'snapshot',
      'update',
    ]);

    const late = await open(soccerOnly);
    late.send({ action: 'subscribe', match_id: ids.arsChe });
    const stored = await late.next((frame) => frame.op === 'snapshot');
    expect(dataOf(stored)).toEqual(
      expect.objectContaining({ match_id: ids.arsChe, score: { home: second, away: 0 } }),
    );
  });

  it('reads a match once for a burst of clients subscribing to it at the same time', async () => {
    goal(catalog.ids.arsChe.stat_id);
    const first = await open(both);
    first.send({ action: 'subscribe', match_id: ids.arsChe });
    await first.next(isFrame('snapshot', ids.arsChe));
    const db = database(apps[0]);
    const query = jest.spyOn(db, 'query');
    const burst = await Promise.all(Array.from({ length: 40 }, () => open(both)));
    const matchReads = () =>
      query.mock.calls.filter(([sql]) => String(sql).includes('FROM fixtures.matches m WHERE m.id = $1'))
        .length;
    try {
      const before = matchReads();
      for (const client of burst) client.send({ action: 'subscribe', match_id: ids.arsChe });
      await Promise.all(burst.map((client) => client.next(isFrame('snapshot', ids.arsChe))));
      // Each subscribe read the match row on its own before; a replica's desks reconnecting at
      // once queued that many identical queries for the pool.
      expect(matchReads() - before).toBeLessThanOrEqual(10);
    } finally {
      query.mockRestore();
    }
  });

  it('stops a match on unsubscribe and keeps the others', async () => {
    const client = await open(both);
    client.send({ action: 'subscribe', match_id: ids.arsChe });
    client.send({ action: 'subscribe', match_id: ids.livTot });
    await client.next(isFrame('snapshot', ids.arsChe));
    await client.next(isFrame('snapshot', ids.livTot));
    client.send({ action: 'unsubscribe', match_id: ids.arsChe });
    const probe = await open(both);
    probe.send({ action: 'subscribe', match_id: ids.arsChe });
    await probe.next(isFrame('snapshot', ids.arsChe));
    const from = client.frames.length;
    const ars = goal(catalog.ids.arsChe.stat_id);
    const liv = goal(catalog.ids.livTot.stat_id);
    await probe.next(isFrame('update', ids.arsChe, ars));
    await client.next(isFrame('update', ids.livTot, liv), { from });
    expect(client.frames.slice(from).filter((frame) => dataOf(frame).match_id === ids.arsChe)).toEqual([]);
  });

  it('answers bad frames and invisible matches with error frames and keeps the socket open', async () => {
    const client = await open(soccerOnly);
    client.send('{"action":');
    client.send({ action: 'watch', match_id: ids.arsChe });
    client.send({ action: 'subscribe', match_id: '12' });
    client.send({ action: 'subscribe', match_id: 999_999_999 });
    client.send({ action: 'subscribe', match_id: ids.suspended });
    client.send({ action: 'subscribe', match_id: ids.t20 });
    await waitFor(() => client.frames.length === 6, { timeoutMs: 10_000, what: 'six error frames' });
    expect(client.frames).toEqual([
      { op: 'error', error: 'malformed JSON: the frame is not valid JSON' },
      { op: 'error', error: 'unknown action: "watch" (expected subscribe, unsubscribe)' },
      { op: 'error', error: 'invalid match_id: expected an integer' },
      { op: 'error', error: 'match not found: 999999999' },
      { op: 'error', error: `match not found: ${ids.suspended}` },
      { op: 'error', error: `match not found: ${ids.t20}` },
    ]);
    expect(client.isOpen).toBe(true);
    client.send({ action: 'subscribe', match_id: ids.arsChe });
    await client.next(isFrame('snapshot', ids.arsChe));
  });

  it('sends a Test at close of play nothing, then the resumed play as its first frame', async () => {
    const stat = catalog.ids.test.stat_id;
    const isTest = (frame: Frame) => frame.op !== 'error' && dataOf(frame).match_id === ids.test;
    const watcher = await open(both);
    watcher.send({ action: 'subscribe', match_id: ids.test });
    fake.push(stat, cricketState());
    await watcher.next((frame) => isTest(frame) && frame.op === 'snapshot');
    fake.push(stat, cricketState({ status: 'stumps', score: '262/7 (70.0)', at: '2026-11-21T07:00:00Z' }));
    await watcher.next((frame) => isTest(frame) && dataOf(frame).status === 'stopped');
    await waitFor(
      async () => {
        const rows = await database(apps[0]).query<Array<{ status: string }>>(
          'SELECT status FROM fixtures.matches WHERE id = $1',
          [ids.test],
        );
        return rows[0]?.status === 'CLOSE_OF_PLAY';
      },
      { timeoutMs: 15_000, what: 'the Test to be at close of play' },
    );

    const late = await open(both);
    late.send({ action: 'subscribe', match_id: ids.test });
    // Frames of one client are handled in order: this answer means the subscribe above is done.
    late.send({ action: 'subscribe', match_id: 999_999_999 });
    await late.next((frame) => frame.op === 'error');
    fake.push(stat, cricketState({ status: 'live', score: '266/7 (70.4)', at: '2026-11-22T00:30:00Z' }));
    const first = await late.next(isTest, { what: 'the first frame of the Test after play resumed' });
    expect(first.op).toBe('snapshot');
    expect(dataOf(first)).toMatchObject({ status: 'live', score: { runs: 266 } });
  });

  it('delivers the same update bytes to subscribers of two api replicas', async () => {
    const first = await boot({ ROLE: 'api' });
    const second = await boot({ ROLE: 'api' });
    const a = await open(both, first.url);
    const b = await open(both, second.url);
    a.send({ action: 'subscribe', match_id: ids.livTot });
    b.send({ action: 'subscribe', match_id: ids.livTot });
    await a.next(isFrame('snapshot', ids.livTot));
    await b.next(isFrame('snapshot', ids.livTot));
    const score = goal(catalog.ids.livTot.stat_id);
    const fromA = await a.next(isFrame('update', ids.livTot, score));
    const fromB = await b.next(isFrame('update', ids.livTot, score));
    expect(a.texts[a.frames.indexOf(fromA)]).toBe(b.texts[b.frames.indexOf(fromB)]);
  });

  it('closes its sockets with 1001 when the application shuts down', async () => {
    const replica = await boot({ ROLE: 'api' });
    const client = await open(both, replica.url);
    client.send({ action: 'subscribe', match_id: ids.livTot });
    await client.next(isFrame('snapshot', ids.livTot));
    await replica.app.close();
    apps.splice(apps.indexOf(replica.app), 1);
    await expect(client.closed()).resolves.toBe(1001);
  });
});
