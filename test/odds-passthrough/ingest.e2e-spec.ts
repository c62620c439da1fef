import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { ManualClock } from '@app/clock';
import { BookReadPort } from '../../apps/odds-passthrough/src/book/book-read-port';
import { aMatchup, aMoneyline, aSpread, aTotal } from './sportsbook-factory';
import { bootOdds, http } from '../support/apps';
import { FakeSportsbook } from '../support/fake-sportsbook';
import { waitFor } from '../support/wait-for';
import { type IsolatedStack, isolatedStack } from '../streams/support/isolated-stack';
import { FUTURE, MATCH, SOCCER, SPECIAL, TENNIS, seedBook } from './book-fixture';

interface Selection {
  market_key: string;
  market_name: string;
  bet_name: string;
  line?: number;
  price: number;
  decimal: number;
  status: string;
  version: number;
  cutoff_at: string;
}

interface Odds {
  match_id: number;
  sport_id: number;
  ts: number;
  selections: Selection[];
}

const HOCKEY = 40;
const HOCKEY_MATCH = 1900000001;
const PREMATCH = 1800000001;
const LIVE = 1800000002;

/**
 * The ingest against a fake sportsbook: what the book does (line moves,
 * withdrawals, cold label tables, faults, prematch → live) as REST clients of
 * this and other replicas see it, and versions across a restart.
 */
describe('odds ingest', () => {
  const book = new FakeSportsbook();
  const apps: INestApplication[] = [];
  let stack: IsolatedStack;
  let app: INestApplication;
  let clock: ManualClock;
  let key: string;

  async function boot(
    env: Record<string, string> = {},
  ): Promise<{ app: INestApplication; clock: ManualClock }> {
    const booted = await bootOdds({
      env: {
        ...stack.env,
        BOOK_UPSTREAM_URL: book.url,
        BOOK_POLL_MS: '200',
        BOOK_RELIST_MS: '1000',
        BOOK_TIMEOUT_MS: '500',
        ...env,
      },
    });
    apps.push(booted.app);
    return booted;
  }

  async function odds(match: number, on: INestApplication = app): Promise<Odds | undefined> {
    const response = await request(http(on)).get('/v1/book/odds').query({ match }).set('X-API-Key', key);
    if (response.status === 404) return undefined;
    expect(response.status).toBe(200);
    return response.body as Odds;
  }

  /** Reads the match's odds until `accept` holds (the match may be unknown meanwhile). */
  async function oddsWhen(
    match: number,
    accept: (odds: Odds | undefined) => boolean,
    what: string,
    on: INestApplication = app,
  ): Promise<Odds> {
    let last: Odds | undefined;
    await waitFor(
      async () => {
        last = await odds(match, on);
        return accept(last);
      },
      { timeoutMs: 8000, intervalMs: 50, what },
    );
    return last ?? { match_id: match, sport_id: 0, ts: 0, selections: [] };
  }

  /** Moves the home price of the match's money line; away and draw stay as seeded. */
  function moveHomePrice(price: number): void {
    book.putMarket(
      SOCCER,
      aMoneyline({
        cutoff_at: FUTURE,
        prices: [
          { designation: 'home', price },
          { designation: 'away', price: 190 },
          { designation: 'draw', price: 240 },
        ],
      }),
    );
  }

  const market = (o: Odds | undefined, name: string) =>
    o?.selections.filter((s) => s.market_name === name) ?? [];

  beforeAll(async () => {
    stack = await isolatedStack('odds_ingest');
    await book.start();
    seedBook(book);
    key = await stack.issueKey({ scopes: 'odds', grants: [`book=${SOCCER},${TENNIS},${HOCKEY}`] });
    ({ app, clock } = await boot());
    await oddsWhen(MATCH, (o) => o !== undefined, 'the first full load');
  }, 90_000);

  afterAll(async () => {
    for (const booted of apps.reverse()) await booted.close();
    await book.stop();
    await stack?.drop();
  });

  it('gives a price change a greater version and the new decimal', async () => {
    const before = market(await odds(MATCH), 'Match - Money Line');
    moveHomePrice(160);
    const after = market(
      await oddsWhen(
        MATCH,
        (o) => market(o, 'Match - Money Line').some((s) => s.price === 160),
        'the new price',
      ),
      'Match - Money Line',
    );
    expect(after.find((s) => s.bet_name === 'Arsenal')?.decimal).toBe(2.6);
    expect(after[0].version).toBeGreaterThan(before[0].version);
    expect(new Set(after.map((s) => s.version)).size).toBe(1);
  });

  it('moves a line as a new market_key and withdraws the old one, also for a key without the line', async () => {
    const before = market(await odds(MATCH), 'Match - Handicap');
    book.withdrawMarket(SOCCER, MATCH, 's;0;s;-1.5');
    book.putMarket(SOCCER, aSpread(-2.5, { cutoff_at: FUTURE }));
    const moved = await oddsWhen(
      MATCH,
      (o) => market(o, 'Match - Handicap').some((s) => s.bet_name === 'Arsenal -2.5'),
      'the moved handicap',
    );
    expect(
      market(moved, 'Match - Handicap')
        .map((s) => s.bet_name)
        .sort(),
    ).toEqual(['Arsenal -2.5', 'Chelsea +2.5']);
    expect(moved.selections.some((s) => s.market_key === before[0].market_key)).toBe(false);

    // A prop whose book key carries no line: the line lives in the points only.
    book.putMarket(SOCCER, aTotal(3.5, { key: 's;0;ou', cutoff_at: FUTURE }));
    const first = await oddsWhen(
      MATCH,
      (o) => o?.selections.some((s) => s.bet_name === 'Over 3.5') ?? false,
      'the keyless total',
    );
    const oldKey = first.selections.find((s) => s.bet_name === 'Over 3.5')?.market_key;
    book.putMarket(SOCCER, aTotal(4.5, { key: 's;0;ou', cutoff_at: FUTURE }));
    const second = await oddsWhen(
      MATCH,
      (o) => o?.selections.some((s) => s.bet_name === 'Over 4.5') ?? false,
      'the keyless total to move',
    );
    const newKey = second.selections.find((s) => s.bet_name === 'Over 4.5')?.market_key;
    expect(newKey).not.toBe(oldKey);
    expect(second.selections.some((s) => s.market_key === oldKey)).toBe(false);
  });

  it('removes a withdrawn market, and a withdrawn matchup with all its markets', async () => {
    book.withdrawMarket(SOCCER, MATCH, 's;0;tt;1.5;home');
    await oddsWhen(
      MATCH,
      (o) => market(o, 'Match - Team Total - Arsenal').length === 0,
      'the team total to go',
    );
    expect(await odds(SPECIAL)).toBeDefined();
    book.removeMatchup(SOCCER, SPECIAL);
    await oddsWhen(SPECIAL, (o) => o === undefined, 'the special to be withdrawn');
    const matches = await request(http(app)).get('/v1/book/matches').set('X-API-Key', key).expect(200);
    expect((matches.body as { id: number }[]).map((m) => m.id)).not.toContain(SPECIAL);
  });

  it('locks a prematch matchup frozen open when its cutoff passes, and lists the live one with its parent', async () => {
    // Whole seconds: the book's fractions are cut when times are normalised.
    const cutoff = new Date(Math.ceil(clock.now() / 1000) * 1000 + 60_000)
      .toISOString()
      .replace('.000Z', 'Z');
    const periods = [{ number: 0, status: 'open', cutoff_at: cutoff }];
    book.putMatchup(SOCCER, aMatchup({ id: PREMATCH, start_time: cutoff, periods }));
    book.putMarket(SOCCER, aMoneyline({ matchup_id: PREMATCH, cutoff_at: undefined }));
    const open = await oddsWhen(PREMATCH, (o) => (o?.selections.length ?? 0) === 3, 'the prematch odds');
    expect(open.selections.every((s) => s.status === 'unlocked')).toBe(true);
    expect(open.selections[0].cutoff_at).toBe(cutoff);

    clock.advance(61_000);
    // Status is evaluated at the moment of the response...
    const read = await odds(PREMATCH);
    expect(read?.selections.every((s) => s.status === 'locked')).toBe(true);
    // ...and the ingest publishes the lock with a greater version.
    const locked = await oddsWhen(
      PREMATCH,
      (o) => (o?.selections[0].version ?? 0) > open.selections[0].version,
      'the lock to be published',
    );
    expect(locked.selections.every((s) => s.status === 'locked')).toBe(true);
    expect(locked.selections[0].price).toBe(open.selections[0].price);

    const later = new Date(clock.now() + 3_600_000).toISOString();
    book.putMatchup(
      SOCCER,
      aMatchup({
        id: LIVE,
        parent_id: PREMATCH,
        is_live: true,
        start_time: cutoff,
        periods: [{ number: 0, status: 'open', cutoff_at: later }],
      }),
    );
    book.putMarket(SOCCER, aMoneyline({ matchup_id: LIVE, cutoff_at: later }));
    const live = await oddsWhen(LIVE, (o) => (o?.selections.length ?? 0) === 3, 'the live odds');
    expect(live.selections.every((s) => s.status === 'unlocked')).toBe(true);
    const matches = (
      await request(http(app)).get('/v1/book/matches').query({ sport: SOCCER }).set('X-API-Key', key)
    ).body as { id: number; parent_id: number | null; is_live: boolean }[];
    expect(matches.find((m) => m.id === LIVE)).toEqual(
      expect.objectContaining({ parent_id: PREMATCH, is_live: true }),
    );
    expect((await odds(PREMATCH))?.selections.every((s) => s.status === 'locked')).toBe(true);
  });

  it('reads leagues on the relist interval, and at once for a matchup in a league it has not seen', async () => {
    const leagueReads = () => book.count(/\/sports\/29\/leagues$/);
    const polls = () => book.count(/\/sports\/29\/markets\?since=/);
    const [leaguesBefore, pollsBefore] = [leagueReads(), polls()];
    await waitFor(() => polls() >= pollsBefore + 10, { timeoutMs: 8000, what: 'ten polls' });
    // Ten polls of 200 ms take about two relist intervals of 1 s: a couple of reads, not ten.
    expect(leagueReads() - leaguesBefore).toBeLessThanOrEqual(4);

    const LA_LIGA = 1990;
    const NEW_MATCH = 1601300002;
    book.setLeagues(SOCCER, [
      { id: 1980, name: 'England - Premier League' },
      { id: LA_LIGA, name: 'Spain - La Liga' },
    ]);
    book.putMatchup(
      SOCCER,
      aMatchup({
        id: NEW_MATCH,
        league_id: LA_LIGA,
        start_time: FUTURE,
        periods: [{ number: 0, status: 'open', cutoff_at: FUTURE }],
      }),
    );
    book.putMarket(SOCCER, aMoneyline({ matchup_id: NEW_MATCH, cutoff_at: FUTURE }));
    const putAt = polls();
    await waitFor(
      async () => {
        const leagues = await request(http(app))
          .get('/v1/book/leagues')
          .query({ sport: SOCCER })
          .set('X-API-Key', key);
        return (leagues.body as { id: number; name: string }[]).some(
          (league) => league.id === LA_LIGA && league.name === 'Spain - La Liga',
        );
      },
      { timeoutMs: 8000, intervalMs: 20, what: 'the new league' },
    );
    // Within the poll that saw the matchup (two if the change landed during one), not at the relist.
    expect(polls() - putAt).toBeLessThanOrEqual(2);
    await oddsWhen(NEW_MATCH, (o) => (o?.selections.length ?? 0) === 3, 'the new match');
  });

  it('names markets Period N until a cold label table loads, then renames them with greater versions', async () => {
    book.setLabels(HOCKEY, undefined);
    book.setLeagues(HOCKEY, [{ id: 7000, name: 'NHL' }]);
    book.putMatchup(
      HOCKEY,
      aMatchup({
        id: HOCKEY_MATCH,
        league_id: 7000,
        start_time: FUTURE,
        periods: [{ number: 0, status: 'open', cutoff_at: FUTURE }],
      }),
    );
    book.putMarket(HOCKEY, aMoneyline({ matchup_id: HOCKEY_MATCH, cutoff_at: FUTURE }));
    book.setSports([
      { id: SOCCER, name: 'Soccer' },
      { id: 33, name: 'Tennis' },
      { id: HOCKEY, name: 'Hockey' },
    ]);
    const cold = await oddsWhen(HOCKEY_MATCH, (o) => (o?.selections.length ?? 0) > 0, 'the cold sport');
    expect(new Set(cold.selections.map((s) => s.market_name))).toEqual(new Set(['Period 0 - Money Line']));
    const sports = await request(http(app)).get('/v1/book/sports').set('X-API-Key', key).expect(200);
    expect(sports.body).toContainEqual({ id: HOCKEY, name: 'Hockey' });

    book.setLabels(HOCKEY, []);
    book.setLabels(HOCKEY, [{ number: 0, description: 'Regulation Time' }]);
    const named = await oddsWhen(
      HOCKEY_MATCH,
      (o) => o?.selections[0].market_name === 'Regulation Time - Money Line',
      'the rename',
    );
    expect(named.selections[0].version).toBeGreaterThan(cold.selections[0].version);
    expect(named.selections[0].market_key).toBe(cold.selections[0].market_key);
  });

  it.each([
    ['a 5xx answer', { status: 500 }],
    ['a body of the wrong shape', { garbage: true }],
    ['a timeout', { delayMs: 800 }],
  ])('keeps the state through %s, reports the feed unhealthy, then recovers', async (_name, fault) => {
    const replica = app.get(BookReadPort);
    const before = await odds(MATCH);
    await waitFor(() => replica.feedHealthy('book'), { timeoutMs: 5000, what: 'a healthy feed' });
    const seen = book.requests.length;
    book.setFault(fault);
    await waitFor(() => book.requests.length >= seen + 3, { timeoutMs: 8000, what: 'failing polls' });
    clock.advance(1000);
    expect(replica.feedHealthy('book')).toBe(false);
    expect(await odds(MATCH)).toEqual(before);
    book.setFault(undefined);
    await waitFor(() => replica.feedHealthy('book'), { timeoutMs: 8000, what: 'the feed to recover' });
    book.putMarket(
      SOCCER,
      aSpread(-2.5, {
        cutoff_at: FUTURE,
        prices: [
          { designation: 'home', points: -2.5, price: 300 + (book.requests.length % 100) },
          { designation: 'away', points: 2.5, price: -400 },
        ],
      }),
    );
    await oddsWhen(
      MATCH,
      (o) => market(o, 'Match - Handicap').some((s) => s.price >= 300),
      'changes after the recovery',
    );
  });

  it('falls back to a full load when the cursor is gone (410)', async () => {
    const fullLoads = () => book.count(/^\/sports\/29\/markets$/);
    const loads = fullLoads();
    book.forgetCursors();
    await waitFor(() => fullLoads() > loads, { timeoutMs: 5000, what: 'a full load after 410' });
    book.putMarket(
      SOCCER,
      aTotal(2.5, {
        cutoff_at: FUTURE,
        prices: [
          { designation: 'over', points: 2.5, price: -150 },
          { designation: 'under', points: 2.5, price: 130 },
        ],
      }),
    );
    await oddsWhen(
      MATCH,
      (o) => o?.selections.some((s) => s.bet_name === 'Over 2.5' && s.price === -150) ?? false,
      'a change after the reload',
    );
  });

  it('serves the same odds from a late api replica, which follows later changes', async () => {
    const { app: replica } = await boot({ ROLE: 'api' });
    const [mine, theirs] = await Promise.all([odds(MATCH), odds(MATCH, replica)]);
    expect(theirs).toBeDefined();
    const sorted = (o: Odds | undefined) =>
      [...(o?.selections ?? [])].sort((a, b) =>
        `${a.market_key}|${a.bet_name}`.localeCompare(`${b.market_key}|${b.bet_name}`),
      );
    expect(sorted(theirs)).toEqual(sorted(mine));
    expect(theirs?.ts).toBe(mine?.ts);

    moveHomePrice(175);
    await oddsWhen(
      MATCH,
      (o) => o?.selections.some((s) => s.price === 175) ?? false,
      'the replica to follow',
      replica,
    );
  });

  it('keeps versions growing across a restart of the ingest', async () => {
    const before = await odds(MATCH);
    const index = apps.indexOf(app);
    await app.close();
    apps.splice(index, 1);
    ({ app, clock } = await boot());
    // Served from shared state at once, with the versions it had.
    const restored = await odds(MATCH);
    expect(restored?.selections.map((s) => [s.market_key, s.bet_name, s.version]).sort()).toEqual(
      before?.selections.map((s) => [s.market_key, s.bet_name, s.version]).sort(),
    );
    const oldVersion = market(before, 'Match - Money Line')[0].version;
    moveHomePrice(199);
    const changed = await oddsWhen(
      MATCH,
      (o) => market(o, 'Match - Money Line').some((s) => s.price === 199),
      'a change after the restart',
    );
    expect(market(changed, 'Match - Money Line')[0].version).toBeGreaterThan(oldVersion);
  });
});
