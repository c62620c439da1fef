import type { INestApplication } from '@nestjs/common';
import { testCatalog } from '../fixtures-live/catalog-factory';
import { bootAgainst, catalogPolls, matchIdOf } from '../fixtures-live/harness';
import {
  MATCH,
  moneylineWithHomePrice,
  seedBook,
  SOCCER,
  TENNIS,
  TENNIS_MATCH,
  tennisMoneylineWithHomePrice,
} from '../odds-passthrough/book-fixture';
import { bootOdds } from '../support/apps';
import { FakeLivescores, soccerState } from '../support/fake-livescores';
import { FakeSportsbook } from '../support/fake-sportsbook';
import { waitFor } from '../support/wait-for';
import { untilMatchServed } from './support/book-served';
import { type IsolatedStack, isolatedStack } from './support/isolated-stack';
import { type Frame, listen, StreamClient } from './support/stream-client';

/** Disconnects per run: each lasts 3 s, after 0.5 to 2 s connected (bounded: about 12 s per service). */
const DISCONNECTS = Number(process.env.RESUME_DISCONNECTS ?? 3);
const seed = Number(process.env.RESUME_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** A small seeded generator (mulberry32), so a failing run can be replayed with RESUME_SEED. */
function generator(start: number): () => number {
  let state = start >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A client as a trading desk writes it with the extension's rules: per match
 * it keeps the newest `seq` applied and ignores a frame not above it; the
 * service decides how a frame changes the held state.
 */
class DeskClient {
  readonly seqs = new Map<number, number>();
  /** Frames whose `seq` was not above the held one for their match (ignored, as the rules say). */
  ignored = 0;
  /** `seq` went backwards within what one socket delivered for a match. */
  readonly backwards: string[] = [];
  snapshotsAfterResume = 0;
  /** Updates received after a resume for changes made while the socket was down. */
  replayed = 0;
  newestSeq = 0;
  private socket?: StreamClient;
  private read = 0;
  /** After a resume: the newest change made while away (what a replay must cover). */
  private missedUpTo = 0;
  private resumed = false;
  private readonly lastOnSocket = new Map<number, number>();

  constructor(
    private readonly url: string,
    private readonly matchOf: (frame: Frame) => number | undefined,
    private readonly applyFrame: (frame: Frame, isFirst: boolean) => void,
  ) {}

  /** `missedUpTo`: when resuming, the newest seq a client that stayed connected holds. */
  async connect(subscribe: (socket: StreamClient, resuming: boolean) => void, missedUpTo?: number) {
    this.socket = await StreamClient.open(this.url);
    this.read = 0;
    this.lastOnSocket.clear();
    this.resumed = missedUpTo !== undefined;
    this.missedUpTo = missedUpTo ?? 0;
    subscribe(this.socket, this.resumed);
  }

  disconnect(): void {
    this.drain();
    this.socket?.close();
    this.socket = undefined;
  }

  /** Applies every frame received since the last call. */
  drain(): void {
    const frames = this.socket?.frames ?? [];
    for (; this.read < frames.length; this.read++) this.apply(frames[this.read]);
  }

  private apply(frame: Frame): void {
    const match = this.matchOf(frame);
    if (match === undefined || typeof frame.seq !== 'number') return;
    const seq = frame.seq;
    const onSocket = this.lastOnSocket.get(match) ?? 0;
    if (seq <= onSocket) this.backwards.push(`match ${match}: ${seq} after ${onSocket}`);
    this.lastOnSocket.set(match, seq);
    if (this.resumed) {
      if (frame.type === 'snapshot' || frame.op === 'snapshot') this.snapshotsAfterResume += 1;
      else if (seq <= this.missedUpTo) this.replayed += 1;
    }
    const held = this.seqs.get(match) ?? 0;
    if (seq <= held) {
      this.ignored += 1;
      return;
    }
    this.applyFrame(frame, held === 0);
    this.seqs.set(match, seq);
    this.newestSeq = Math.max(this.newestSeq, seq);
  }
}

/** Runs the scenario: changes flow while the flaky client drops its socket at random moments. */
async function disconnectAtRandom(
  flaky: DeskClient,
  steady: DeskClient[],
  subscribe: (socket: StreamClient, resuming: boolean) => void,
  change: () => void,
): Promise<{ disconnects: number }> {
  const random = generator(seed);
  const driver = setInterval(change, 150);
  try {
    for (let i = 0; i < DISCONNECTS; i++) {
      await pause(500 + random() * 1_500);
      flaky.disconnect();
      await pause(3_000);
      for (const client of steady) client.drain();
      await flaky.connect(subscribe, Math.max(...steady.map((client) => client.newestSeq)));
    }
    await pause(500);
  } finally {
    clearInterval(driver);
  }
  return { disconnects: DISCONNECTS };
}

async function converged(flaky: DeskClient, steady: DeskClient): Promise<void> {
  await waitFor(
    () => {
      flaky.drain();
      steady.drain();
      return (
        steady.seqs.size > 0 &&
        [...steady.seqs].every(([match, seq]) => flaky.seqs.get(match) === seq) &&
        flaky.seqs.size === steady.seqs.size
      );
    },
    { timeoutMs: 15_000, what: 'the resuming client to hold the positions of the steady one' },
  );
}

describe('a client that drops its socket at random moments and resumes', () => {
  const apps: INestApplication[] = [];
  const sockets: DeskClient[] = [];
  let stack: IsolatedStack;

  beforeAll(async () => {
    stack = await isolatedStack('resume_convergence');
  });

  afterAll(async () => {
    for (const client of sockets) client.disconnect();
    for (const app of apps.reverse()) await app.close();
    await stack?.drop();
  });

  it('ends with the live scores of one that never disconnected (fixtures-live)', async () => {
    const catalog = testCatalog();
    const fake = new FakeLivescores();
    fake.setCatalog(catalog.sports);
    await fake.start();
    try {
      const { app: ingest } = await bootAgainst(fake, { env: { ...stack.env, ROLE: 'ingest' } });
      apps.push(ingest);
      await catalogPolls(ingest);
      const matches = await Promise.all(
        [catalog.ids.arsChe, catalog.ids.livTot].map((m) => matchIdOf(ingest, m.id)),
      );
      const { app: api } = await bootAgainst(fake, { env: { ...stack.env, ROLE: 'api' } });
      apps.push(api);
      const key = await stack.issueKey({ sports: 'soccer', scopes: 'live_scores_statistics' });
      await waitFor(() => fake.liveClients > 0, { timeoutMs: 10_000, what: 'the live feed to connect' });
      const url = `${await listen(api)}/v1/stream?key=${key}`;

      const states = () => new Map<number, unknown>();
      const steadyState = states();
      const flakyState = states();
      const matchOf = (frame: Frame) =>
        frame.op === 'snapshot' || frame.op === 'update'
          ? (frame.data as { match_id: number }).match_id
          : undefined;
      const steady = new DeskClient(url, matchOf, (frame) =>
        steadyState.set(matchOf(frame) as number, frame.data),
      );
      const flaky = new DeskClient(url, matchOf, (frame) =>
        flakyState.set(matchOf(frame) as number, frame.data),
      );
      sockets.push(steady, flaky);
      const subscribe = (client: DeskClient) => (socket: StreamClient, resuming: boolean) => {
        for (const match of matches) {
          const held = client.seqs.get(match);
          socket.send({
            action: 'subscribe',
            match_id: match,
            ...(resuming && held !== undefined ? { resume_after: held } : {}),
          });
        }
      };
      await steady.connect(subscribe(steady));
      await flaky.connect(subscribe(flaky));

      let goals = 0;
      const sources = [catalog.ids.arsChe.stat_id, catalog.ids.livTot.stat_id];
      const change = () => {
        goals += 1;
        fake.push(sources[goals % 2], soccerState({ score: { home: goals, away: 0 } }));
      };
      const run = await disconnectAtRandom(flaky, [steady], subscribe(flaky), change);
      await converged(flaky, steady);

      const summary = {
        service: 'fixtures-live',
        seed,
        ...run,
        changes: goals,
        replayed: flaky.replayed,
        snapshotsAfterResume: flaky.snapshotsAfterResume,
        mismatches: [...steadyState].filter(
          ([match, data]) => JSON.stringify(flakyState.get(match)) !== JSON.stringify(data),
        ).length,
        backwards: [...steady.backwards, ...flaky.backwards],
      };
      console.log(`resume-convergence ${JSON.stringify(summary)}`);
      expect(summary).toMatchObject({ snapshotsAfterResume: 0, mismatches: 0, backwards: [] });
      expect(summary.replayed).toBeGreaterThan(0);
      expect(steadyState.size).toBe(matches.length);
    } finally {
      await fake.stop();
    }
  }, 90_000);

  it('ends with the prices of one that never disconnected, subscribed to all (odds-passthrough)', async () => {
    const book = new FakeSportsbook();
    await book.start();
    seedBook(book);
    try {
      const env = { ...stack.env, BOOK_UPSTREAM_URL: book.url, BOOK_POLL_MS: '200' };
      apps.push((await bootOdds({ env: { ...env, ROLE: 'ingest' } })).app);
      const { app: api } = await bootOdds({ env: { ...env, ROLE: 'api' } });
      apps.push(api);
      const key = await stack.issueKey({ scopes: 'odds', grants: [`book=${SOCCER},${TENNIS}`] });
      const url = `${await listen(api)}/v1/book/data?key=${key}`;

      type Market = { version: number; selections: unknown[] };
      type Markets = Map<string, Market>;
      const book_ = () => new Map<number, Markets>();
      const steadyBook = book_();
      const flakyBook = book_();
      const matchOf = (frame: Frame) =>
        frame.type === 'snapshot' || frame.type === 'update' ? (frame.match_id as number) : undefined;
      const applier = (held: Map<number, Markets>) => (frame: Frame) => {
        const match = frame.match_id as number;
        const markets: Markets =
          (frame.type === 'update' ? held.get(match) : undefined) ?? new Map<string, Market>();
        const incoming = new Map<string, Market>();
        for (const selection of frame.selections as { market_key: string; version: number }[]) {
          const entry = incoming.get(selection.market_key) ?? { version: selection.version, selections: [] };
          entry.selections.push(selection);
          incoming.set(selection.market_key, entry);
        }
        for (const [marketKey, entry] of incoming) {
          if ((markets.get(marketKey)?.version ?? -1) < entry.version) markets.set(marketKey, entry);
        }
        for (const marketKey of (frame.removed_market_keys as string[] | undefined) ?? [])
          markets.delete(marketKey);
        held.set(match, markets);
      };
      const steady = new DeskClient(url, matchOf, applier(steadyBook));
      const single = new DeskClient(url, matchOf, () => undefined);
      const flaky = new DeskClient(url, matchOf, applier(flakyBook));
      sockets.push(steady, single, flaky);
      const subscribeAll = (client: DeskClient) => (socket: StreamClient, resuming: boolean) =>
        socket.send({
          action: 'subscribe_all',
          ...(resuming && client.newestSeq > 0 ? { resume_after: client.newestSeq } : {}),
        });
      const probe = await StreamClient.open(url);
      await untilMatchServed(probe, TENNIS_MATCH).finally(() => probe.close());
      await steady.connect(subscribeAll(steady));
      await single.connect((socket) => socket.send({ action: 'subscribe', match: MATCH }));
      await flaky.connect(subscribeAll(flaky));

      let step = 0;
      const change = () => {
        step += 1;
        if (step % 3 === 0) {
          book.putMarket(TENNIS, tennisMoneylineWithHomePrice(100 + step));
        } else if (step % 7 === 0) book.withdrawMarket(SOCCER, MATCH, 's;0;ou;2.5');
        else book.putMarket(SOCCER, moneylineWithHomePrice(300 + step));
      };
      const run = await disconnectAtRandom(flaky, [steady, single], subscribeAll(flaky), change);
      await converged(flaky, steady);
      single.drain();

      const summary = {
        service: 'odds-passthrough',
        seed,
        ...run,
        changes: step,
        replayed: flaky.replayed,
        snapshotsAfterResume: flaky.snapshotsAfterResume,
        mismatches: [...steadyBook].filter(
          ([match, markets]) =>
            JSON.stringify([...(flakyBook.get(match) ?? new Map())].sort()) !==
            JSON.stringify([...markets].sort()),
        ).length,
        backwards: [...steady.backwards, ...single.backwards, ...flaky.backwards],
      };
      console.log(`resume-convergence ${JSON.stringify(summary)}`);
      expect(summary).toMatchObject({ snapshotsAfterResume: 0, mismatches: 0, backwards: [] });
      expect(summary.replayed).toBeGreaterThan(0);
      expect(single.seqs.get(MATCH)).toBe(steady.seqs.get(MATCH));
    } finally {
      await book.stop();
    }
  }, 90_000);
});
