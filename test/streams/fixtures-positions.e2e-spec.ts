import type { INestApplication } from '@nestjs/common';
import { testCatalog } from '../fixtures-live/catalog-factory';
import { bootAgainst, catalogPolls, matchIdOf } from '../fixtures-live/harness';
import { FakeLivescores, soccerState } from '../support/fake-livescores';
import { waitFor } from '../support/wait-for';
import { untilLogDropped } from './support/change-log-age';
import { type IsolatedStack, isolatedStack } from './support/isolated-stack';
import { type Frame, listen, refusedHandshake, StreamClient } from './support/stream-client';

interface LiveFrame extends Frame {
  op: 'snapshot' | 'update';
  seq: number;
  prev_seq: number | null;
  data: { match_id: number; score: { home: number } };
}

const isData = (frame: Frame): frame is LiveFrame => frame.op === 'snapshot' || frame.op === 'update';

/**
 * `seq`, `prev_seq`, `resume_after` and `heartbeat_ms` on the live-score
 * stream, against an ingest and separate api replicas on real PostgreSQL and
 * NATS (JetStream keeps the change log).
 */
describe('fixtures stream positions, resume and heartbeats', () => {
  const catalog = testCatalog();
  const fake = new FakeLivescores();
  const apps: INestApplication[] = [];
  const clients: StreamClient[] = [];
  let stack: IsolatedStack;
  let ingest: INestApplication;
  let replicaUrl: string;
  let key: string;
  let match = 0;
  let goals = 0;

  async function boot(role: 'ingest' | 'api'): Promise<{ app: INestApplication; url: string }> {
    const { app } = await bootAgainst(fake, { env: { ...stack.env, ROLE: role } });
    apps.push(app);
    return { app, url: await listen(app) };
  }

  async function open(base: string, query = ''): Promise<StreamClient> {
    const client = await StreamClient.open(`${base}/v1/stream?key=${key}${query}`);
    clients.push(client);
    return client;
  }

  /** A goal more, and the frame a subscriber that never left receives for it. */
  async function goal(watcher: StreamClient): Promise<LiveFrame> {
    goals += 1;
    const home = goals;
    fake.push(catalog.ids.arsChe.stat_id, soccerState({ score: { home, away: 0 } }));
    return (await watcher.next((frame) => isData(frame) && frame.data.score.home === home, {
      what: `the frame of goal ${home}`,
    })) as LiveFrame;
  }

  /** Every data frame a client received after subscribing, once `count` of them have arrived. */
  async function dataFrames(client: StreamClient, count: number): Promise<LiveFrame[]> {
    await waitFor(() => client.frames.filter(isData).length >= count, {
      timeoutMs: 10_000,
      what: `${count} data frame(s)`,
    });
    return client.frames.filter(isData);
  }

  beforeAll(async () => {
    stack = await isolatedStack('fixtures_resume');
    fake.setCatalog(catalog.sports);
    await fake.start();
    ingest = (await boot('ingest')).app;
    await catalogPolls(ingest);
    match = await matchIdOf(ingest, catalog.ids.arsChe.id);
    replicaUrl = (await boot('api')).url;
    key = await stack.issueKey({ sports: 'soccer,cricket', scopes: 'live_scores_statistics' });
    await waitFor(() => fake.liveClients > 0, { timeoutMs: 10_000, what: 'the live feed to connect' });
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) client.close();
    for (const app of apps.reverse()) await app.close();
    await fake.stop();
    await stack?.drop();
  });

  it('numbers every frame with a growing seq and chains prev_seq to the frame before', async () => {
    const watcher = await open(replicaUrl);
    watcher.send({ action: 'subscribe', match_id: match });
    const frames = [await goal(watcher), await goal(watcher), await goal(watcher)];
    expect(frames[0].op).toBe('snapshot');
    for (let i = 1; i < frames.length; i++) {
      expect(frames[i].op).toBe('update');
      expect(frames[i].seq).toBeGreaterThan(frames[i - 1].seq);
      expect(frames[i].prev_seq).toBe(frames[i - 1].seq);
    }
  });

  it('resumes on the same replica and on one that never saw the changes, without a snapshot', async () => {
    const watcher = await open(replicaUrl);
    watcher.send({ action: 'subscribe', match_id: match });
    const held = await goal(watcher);
    const missed = [await goal(watcher), await goal(watcher)];

    const same = await open(replicaUrl);
    same.send({ action: 'subscribe', match_id: match, resume_after: held.seq });
    const other = await open((await boot('api')).url);
    other.send({ action: 'subscribe', match_id: match, resume_after: held.seq });
    for (const client of [same, other]) {
      expect(await dataFrames(client, 2)).toEqual(missed.map((frame) => ({ ...frame, op: 'update' })));
    }
    // And live after the replay, once each.
    const next = await goal(watcher);
    for (const client of [same, other]) {
      await client.next((frame) => isData(frame) && frame.seq === next.seq);
      expect(client.frames.filter(isData).map((frame) => frame.seq)).toEqual(
        [...missed, next].map((f) => f.seq),
      );
    }
  });

  it('keeps seq growing and prev_seq chained across an ingest restart, and resumes across it', async () => {
    const watcher = await open(replicaUrl);
    watcher.send({ action: 'subscribe', match_id: match });
    const before = await goal(watcher);
    const beforeRestart = await goal(watcher);

    await ingest.close();
    apps.splice(apps.indexOf(ingest), 1);
    ingest = (await boot('ingest')).app;
    await waitFor(() => fake.liveClients > 0, { timeoutMs: 10_000, what: 'the new ingest to connect' });
    const after = await goal(watcher);
    expect(after.seq).toBeGreaterThan(beforeRestart.seq);
    expect(after.prev_seq).toBe(beforeRestart.seq);

    const resumed = await open(replicaUrl);
    resumed.send({ action: 'subscribe', match_id: match, resume_after: before.seq });
    expect((await dataFrames(resumed, 2)).map((frame) => [frame.op, frame.seq])).toEqual([
      ['update', beforeRestart.seq],
      ['update', after.seq],
    ]);
  });

  it('answers a position ahead of the log, or unknown, with a snapshot as without resume_after', async () => {
    const watcher = await open(replicaUrl);
    watcher.send({ action: 'subscribe', match_id: match });
    const latest = await goal(watcher);
    for (const position of [latest.seq + 1_000_000, 0]) {
      const client = await open(replicaUrl);
      client.send({ action: 'subscribe', match_id: match, resume_after: position });
      const [first] = await dataFrames(client, 1);
      expect(first).toMatchObject({ op: 'snapshot', seq: latest.seq, prev_seq: latest.prev_seq });
    }
  });

  it('answers a resume_after that is not an integer with an error frame and keeps the socket', async () => {
    const client = await open(replicaUrl);
    client.send({ action: 'subscribe', match_id: match, resume_after: 'yesterday' });
    await client.next((frame) => frame.op === 'error', { what: 'the error frame' });
    // A heartbeat may come at any moment; every other frame is this refusal.
    expect(client.frames.filter((frame) => frame.op !== 'heartbeat')).toEqual([
      { op: 'error', error: 'invalid resume_after: expected an integer' },
    ]);
    client.send({ action: 'subscribe', match_id: match });
    await client.next((frame) => frame.op === 'snapshot');
  });

  it('sends a conflate_ms subscriber one frame per window, with the newest state and its seq', async () => {
    const watcher = await open(replicaUrl);
    watcher.send({ action: 'subscribe', match_id: match });
    await goal(watcher);
    const client = await open(replicaUrl);
    client.send({ action: 'subscribe', match_id: match, conflate_ms: 1_000 });
    await client.next(isData, { what: 'the snapshot' });
    const started = Date.now();
    const pusher = setInterval(() => {
      goals += 1;
      fake.push(catalog.ids.arsChe.stat_id, soccerState({ score: { home: goals, away: 0 } }));
    }, 100);
    try {
      await waitFor(() => Date.now() - started >= 3_500, { timeoutMs: 10_000, what: '3.5 s of changes' });
    } finally {
      clearInterval(pusher);
    }
    const newest = goals;
    const last = (await watcher.next(
      (frame) => isData(frame) && frame.data.score.home === newest,
    )) as LiveFrame;
    const merged = (await client.next((frame) => isData(frame) && frame.data.score.home === newest, {
      timeoutMs: 3_000,
      what: 'the window holding the newest state',
    })) as LiveFrame;
    expect(merged.seq).toBe(last.seq);
    const times = client.receivedAt.filter((_, i) => isData(client.frames[i]));
    const gaps = times.slice(1).map((at, i) => at - times[i]);
    process.stdout.write(
      `fixtures-conflation ${JSON.stringify({ windowMs: 1_000, changesEveryMs: 100, frames: times.length, gapsMs: gaps })}\n`,
    );
    // The server holds each window exactly; what a client sees also carries delivery jitter.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(800);
    expect(times.length).toBeLessThanOrEqual(Math.ceil((times.at(-1)! - times[0]) / 1_000) + 1);
    expect(watcher.frames.filter(isData).length).toBeGreaterThan(3 * times.length);
  });

  it('refuses a conflate_ms out of range with an error frame naming it, and makes no subscription', async () => {
    const client = await open(replicaUrl);
    client.send({ action: 'subscribe', match_id: match, conflate_ms: 10_001 });
    await client.next((frame) => frame.op === 'error');
    expect(client.frames.filter((frame) => frame.op !== 'heartbeat')).toEqual([
      { op: 'error', error: 'invalid conflate_ms: expected an integer from 0 to 10000' },
    ]);
  });

  it('sends heartbeats at the period asked for, with the newest seq and the feed health', async () => {
    const watcher = await open(replicaUrl);
    watcher.send({ action: 'subscribe', match_id: match });
    const latest = await goal(watcher);
    const client = await open(replicaUrl, '&heartbeat_ms=500');
    const arrivals = () => client.receivedAt.filter((_, i) => client.frames[i].op === 'heartbeat');
    await waitFor(() => arrivals().length >= 6, { timeoutMs: 10_000, what: 'six heartbeats' });
    const times = arrivals().slice(0, 6);
    const gaps = times.slice(1).map((at, i) => at - times[i]);
    const mean = gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length;
    process.stdout.write(
      `fixtures-heartbeat ${JSON.stringify({ askedMs: 500, gapsMs: gaps, meanMs: mean })}\n`,
    );
    expect(mean).toBeGreaterThanOrEqual(450);
    expect(mean).toBeLessThanOrEqual(600);
    const beat = client.frames.filter((frame) => frame.op === 'heartbeat').at(-1);
    expect(beat).toMatchObject({ op: 'heartbeat', seq: latest.seq, feed_healthy: true });
    expect(Object.keys(beat ?? {}).sort()).toEqual(['feed_healthy', 'op', 'seq', 'ts']);
    // Clients that did not ask get none.
    expect(watcher.frames.filter((frame) => frame.op === 'heartbeat')).toEqual([]);

    fake.refuseLive(true);
    fake.dropStream();
    await client.next((frame) => frame.op === 'heartbeat' && frame.feed_healthy === false, {
      timeoutMs: 5_000,
      what: 'a heartbeat saying the feed is down',
    });
    fake.refuseLive(false);
    await client.next((frame) => frame.op === 'heartbeat' && frame.feed_healthy === true, {
      from: client.frames.length,
      timeoutMs: 15_000,
      what: 'a heartbeat saying the feed is back',
    });
  });

  it('refuses a heartbeat_ms out of range or not an integer with 400 naming it, without upgrading', async () => {
    for (const value of ['499', '60001', 'soon', '1.5']) {
      await expect(
        refusedHandshake(`${replicaUrl}/v1/stream?key=${key}&heartbeat_ms=${value}`),
      ).resolves.toEqual({
        status: 400,
        body: { detail: 'invalid parameter heartbeat_ms: expected an integer from 500 to 60000' },
      });
    }
  });
});

describe('fixtures stream resume past retention', () => {
  const catalog = testCatalog();
  const fake = new FakeLivescores();
  const clients: StreamClient[] = [];
  let stack: IsolatedStack;
  let app: INestApplication | undefined;

  afterAll(async () => {
    for (const client of clients) client.close();
    await app?.close();
    await fake.stop();
    await stack?.drop();
  });

  it('sends a snapshot when changes after the position have aged out of the log', async () => {
    stack = await isolatedStack('fixtures_retention');
    fake.setCatalog(catalog.sports);
    await fake.start();
    ({ app } = await bootAgainst(fake, {
      env: { ...stack.env, ROLE: 'all', CHANGE_LOG_RETENTION_MS: '1000' },
    }));
    await catalogPolls(app);
    const match = await matchIdOf(app, catalog.ids.arsChe.id);
    const key = await stack.issueKey({ sports: 'soccer', scopes: 'live_scores_statistics' });
    await waitFor(() => fake.liveClients > 0, { timeoutMs: 10_000, what: 'the live feed to connect' });
    const url = await listen(app);
    const watcher = await StreamClient.open(`${url}/v1/stream?key=${key}`);
    clients.push(watcher);
    watcher.send({ action: 'subscribe', match_id: match });
    const frames: LiveFrame[] = [];
    for (const home of [1, 2]) {
      fake.push(catalog.ids.arsChe.stat_id, soccerState({ score: { home, away: 0 } }));
      frames.push(
        (await watcher.next((frame) => isData(frame) && frame.data.score.home === home)) as LiveFrame,
      );
    }

    await untilLogDropped(stack.env.NATS_SUBJECT_PREFIX, 'FIXTURES_LIVE', frames[1].seq);

    const resumed = await StreamClient.open(`${url}/v1/stream?key=${key}`);
    clients.push(resumed);
    resumed.send({ action: 'subscribe', match_id: match, resume_after: frames[0].seq });
    const first = (await resumed.next(isData)) as LiveFrame;
    expect(first).toMatchObject({ op: 'snapshot', seq: frames[1].seq, data: { score: { home: 2 } } });
  }, 60_000);
});
