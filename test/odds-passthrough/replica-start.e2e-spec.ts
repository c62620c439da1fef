import type { INestApplication } from '@nestjs/common';
import { connect, type NatsConnection } from 'nats';
import request from 'supertest';
import { type ChangePosition, NatsLink } from '@app/messaging';
import { BookRepository } from '../../apps/odds-passthrough/src/book/book.repository';
import { type MatchChange, readBatch } from '../../apps/odds-passthrough/src/book/match-change-batch';
import { MATCH, moneylineWithHomePrice, seedBook, SOCCER } from './book-fixture';
import { bootOdds, bootOddsAsMain, http } from '../support/apps';
import { FakeSportsbook } from '../support/fake-sportsbook';
import { NATS_URL } from '../support/test-env';
import { waitFor } from '../support/wait-for';
import { type IsolatedStack, isolatedStack } from '../streams/support/isolated-stack';
import { type Frame, listen, StreamClient } from '../streams/support/stream-client';

/** One test's own stack, sportsbook, apps and NATS connection, torn down after it. */
interface StartingStack {
  readonly stack: IsolatedStack;
  readonly book: FakeSportsbook;
  readonly env: Record<string, string>;
  readonly apps: INestApplication[];
  readonly nats: NatsConnection;
}

async function startingStack(name: string, teardowns: (() => Promise<void>)[]): Promise<StartingStack> {
  const stack = await isolatedStack(name);
  const book = new FakeSportsbook();
  const apps: INestApplication[] = [];
  const nats = await connect({ servers: NATS_URL });
  teardowns.push(async () => {
    for (const app of apps.reverse()) await app.close();
    await nats.close();
    await book.stop();
    await stack.drop();
  });
  await book.start();
  seedBook(book);
  const env = { ...stack.env, BOOK_UPSTREAM_URL: book.url, BOOK_POLL_MS: '200' };
  return { stack, book, env, apps, nats };
}

/** The changes of MATCH in a batch the ingest published. */
function changesOfMatch(data: Uint8Array): MatchChange[] {
  return (readBatch(Buffer.from(data).toString('utf8')) ?? []).filter(
    (change) => (JSON.parse(change.text) as { match_id: number }).match_id === MATCH,
  );
}

describe('odds api replica starting while the ingest publishes', () => {
  const teardowns: (() => Promise<void>)[] = [];

  afterEach(async () => {
    for (const teardown of teardowns.splice(0)) await teardown();
  });

  /**
   * Loaded from PostgreSQL before its handlers listen, an api replica must not
   * lose what the ingest published in between, even when the book does not
   * change again.
   */
  it('serves a match the ingest published between its load and its subscriptions', async () => {
    const { stack, env, apps, nats } = await startingStack('odds_replica_start', teardowns);
    // Loaded from an empty database; its NATS handlers do not listen yet.
    const { app: api } = await bootOdds({ env: { ...env, ROLE: 'api' }, startMessaging: false });
    apps.push(api);

    const published = nats.subscribe(`${stack.env.NATS_SUBJECT_PREFIX}.odds.book.changes`);
    apps.push((await bootOdds({ env: { ...env, ROLE: 'ingest' } })).app);
    for await (const message of published) {
      if (changesOfMatch(message.data).length > 0) break;
    }

    await api.startAllMicroservices();
    const key = await stack.issueKey({ scopes: 'odds', grants: ['book=29,33'] });
    const client = await StreamClient.open(`${await listen(api)}/v1/book/data?key=${key}`);
    try {
      await waitFor(
        () => {
          if (client.frames.some((frame) => frame.type === 'snapshot' && frame.match_id === MATCH))
            return true;
          client.send({ action: 'subscribe', match: MATCH });
          return false;
        },
        { timeoutMs: 5_000, intervalMs: 250, what: 'the replica to serve the match' },
      );
    } finally {
      client.close();
    }
  }, 60_000);

  /**
   * Started as main.ts starts it, an api replica subscribes before it loads:
   * one read of the book covers everything published before it, and what it
   * hears before its modules have initialised waits for that read.
   */
  it('reads the book once and keeps a change it heard before initialising', async () => {
    const { stack, book, env, apps, nats } = await startingStack('odds_replica_first', teardowns);
    const matchFrames: MatchChange[] = [];
    nats.subscribe(`${stack.env.NATS_SUBJECT_PREFIX}.odds.book.changes`, {
      callback: (error, message) => {
        if (!error) matchFrames.push(...changesOfMatch(message.data));
      },
    });
    const nextFrame = async () => {
      const seen = matchFrames.length;
      await waitFor(() => matchFrames.length > seen, { timeoutMs: 10_000, what: 'a frame of the match' });
      return matchFrames[matchFrames.length - 1];
    };
    const first = nextFrame();
    apps.push((await bootOdds({ env: { ...env, ROLE: 'ingest' } })).app);
    await first;

    let loads = 0;
    const probe: { heard: ChangePosition | null } = { heard: null };
    const { app: api } = await bootOddsAsMain({
      env: { ...env, ROLE: 'api' },
      beforeStart: (app) => {
        const repository = app.get(BookRepository);
        const load = repository.load.bind(repository);
        jest.spyOn(repository, 'load').mockImplementation((...args) => {
          loads += 1;
          return load(...args);
        });
        // Between the subscriptions and the modules' start: a change the replica hears first.
        const link = app.get(NatsLink);
        const subscribed = link.waitUntilSubscribed.bind(link);
        jest.spyOn(link, 'waitUntilSubscribed').mockImplementation(async (timeoutMs) => {
          const ready = await subscribed(timeoutMs);
          const frame = nextFrame();
          book.putMarket(SOCCER, moneylineWithHomePrice(777));
          probe.heard = (await frame).position;
          return ready;
        });
      },
    });
    apps.push(api);
    expect(probe.heard).not.toBeNull();

    const key = await stack.issueKey({ scopes: 'odds', grants: ['book=29,33'] });
    const prices = async () => {
      const response = await request(http(api)).get(`/v1/book/odds?match=${MATCH}`).set('X-API-Key', key);
      return (response.body as { selections: { price: number }[] }).selections.map((s) => s.price);
    };
    expect(await prices()).toContain(777);
    const client = await StreamClient.open(`${await listen(api)}/v1/book/data?key=${key}`);
    try {
      const isSnapshot = (frame: Frame) => frame.type === 'snapshot' && frame.match_id === MATCH;
      await client.sendUntil({ action: 'subscribe', match: MATCH }, isSnapshot, 'a snapshot of the match');
      expect(client.frames.find(isSnapshot)?.seq).toBe(probe.heard?.seq);
    } finally {
      client.close();
    }

    // Live from then on, and the book was read once.
    book.putMarket(SOCCER, moneylineWithHomePrice(778));
    await waitFor(async () => (await prices()).includes(778), {
      timeoutMs: 5_000,
      what: 'the replica to serve the next change',
    });
    expect(loads).toBe(1);
  }, 60_000);
});
