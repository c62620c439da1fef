import type { INestApplication } from '@nestjs/common';
import { connect, type NatsConnection } from 'nats';
import { MATCH, seedBook } from './book-fixture';
import { bootOdds } from '../support/apps';
import { FakeSportsbook } from '../support/fake-sportsbook';
import { NATS_URL } from '../support/test-env';
import { waitFor } from '../support/wait-for';
import { type IsolatedStack, isolatedStack } from '../streams/support/isolated-stack';
import { listen, StreamClient } from '../streams/support/stream-client';

/**
 * An api replica loads the book from PostgreSQL while it starts, and hears
 * changes on NATS only once its handlers listen: what the ingest published in
 * between must not be lost, even when the book does not change again.
 */
describe('odds api replica starting while the ingest publishes', () => {
  const book = new FakeSportsbook();
  const apps: INestApplication[] = [];
  let stack: IsolatedStack;
  let nats: NatsConnection | undefined;

  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
    await nats?.close();
    await book.stop();
    await stack?.drop();
  });

  it('serves a match the ingest published between its load and its subscriptions', async () => {
    stack = await isolatedStack('odds_replica_start');
    await book.start();
    seedBook(book);
    const env = { ...stack.env, BOOK_UPSTREAM_URL: book.url, BOOK_POLL_MS: '200' };
    // Loaded from an empty database; its NATS handlers do not listen yet.
    const { app: api } = await bootOdds({ env: { ...env, ROLE: 'api' }, startMessaging: false });
    apps.push(api);

    nats = await connect({ servers: NATS_URL });
    const published = nats.subscribe(`${stack.env.NATS_SUBJECT_PREFIX}.odds.book.match.>`);
    apps.push((await bootOdds({ env: { ...env, ROLE: 'ingest' } })).app);
    for await (const message of published) {
      if (message.subject.endsWith(`.${MATCH}`)) break;
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
});
