import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { http } from '../support/apps';
import { FakeSportsbook } from '../support/fake-sportsbook';
import { type IsolatedStack, isolatedStack } from '../streams/support/isolated-stack';
import { MATCH, SOCCER, SPECIAL, TENNIS, TENNIS_MATCH, seedBook } from './book-fixture';
import { bootOnSeededBook } from './seeded-odds';

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
  limit: number;
  period: number;
}

/** Every REST route of the book, its error texts and the grant-enforcement table, against the real stack. */
describe('odds REST /v1/book', () => {
  const book = new FakeSportsbook();
  let stack: IsolatedStack;
  let app: INestApplication;
  let both: string;
  let soccerOnly: string;
  let noSports: string;
  let noOdds: string;
  let otherBook: string;

  beforeAll(async () => {
    stack = await isolatedStack('odds_rest');
    await book.start();
    seedBook(book);
    [both, soccerOnly, noSports, noOdds, otherBook] = await Promise.all([
      stack.issueKey({ scopes: 'odds', grants: [`book=${SOCCER},${TENNIS}`] }),
      stack.issueKey({ scopes: 'odds', grants: [`book=${SOCCER}`] }),
      stack.issueKey({ scopes: 'odds', grants: ['book='] }),
      stack.issueKey({ scopes: 'fixtures', grants: [`book=${SOCCER}`] }),
      stack.issueKey({ scopes: 'odds', grants: [`other=${SOCCER}`] }),
    ]);
    ({ app } = await bootOnSeededBook(stack, book, both));
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    await book.stop();
    await stack?.drop();
  });

  function get(path: string, key?: string, query: Record<string, unknown> = {}) {
    const req = request(http(app)).get(path).query(query);
    return key === undefined ? req : req.set('X-API-Key', key);
  }

  it('answers /healthz with the text ok and lists routes at /v1/book/ without a key', async () => {
    const health = await get('/healthz').expect(200);
    expect(health.text).toBe('ok');
    const routes = await get('/v1/book/').expect(200);
    expect(routes.body).toEqual(
      expect.objectContaining({
        book: 'book',
        routes: expect.arrayContaining([
          expect.objectContaining({ method: 'GET', path: '/v1/book/odds' }),
        ]) as unknown,
      }),
    );
  });

  it('lists granted sports sorted by id', async () => {
    expect((await get('/v1/book/sports', both).expect(200)).body).toEqual([
      { id: SOCCER, name: 'Soccer' },
      { id: TENNIS, name: 'Tennis' },
    ]);
    expect((await get('/v1/book/sports', soccerOnly).expect(200)).body).toEqual([
      { id: SOCCER, name: 'Soccer' },
    ]);
    expect((await get('/v1/book/sports', noSports).expect(200)).body).toEqual([]);
  });

  it('filters leagues and matches to granted sports, and refuses an ungranted ?sport', async () => {
    expect((await get('/v1/book/leagues', soccerOnly).expect(200)).body).toEqual([
      { id: 1980, name: 'England - Premier League', sport_id: SOCCER },
    ]);
    expect((await get('/v1/book/leagues', both, { sport: TENNIS }).expect(200)).body).toEqual([
      { id: 5000, name: 'ATP Vienna', sport_id: TENNIS },
    ]);
    expect((await get('/v1/book/leagues', soccerOnly, { sport: TENNIS }).expect(403)).body).toEqual({
      error: `API key not permitted for sport ${TENNIS}`,
    });

    const matches = (await get('/v1/book/matches', soccerOnly).expect(200)).body as { id: number }[];
    expect(matches.map((m) => m.id).sort()).toEqual([MATCH, SPECIAL]);
    // league names a tennis league, but the sport filter still applies
    expect((await get('/v1/book/matches', soccerOnly, { league: 5000 }).expect(200)).body).toEqual([]);
    expect(
      ((await get('/v1/book/matches', both, { league: 5000 }).expect(200)).body as { id: number }[]).map(
        (m) => m.id,
      ),
    ).toEqual([TENNIS_MATCH]);
    expect((await get('/v1/book/matches', soccerOnly, { sport: TENNIS }).expect(403)).body).toEqual({
      error: `API key not permitted for sport ${TENNIS}`,
    });
    expect((await get('/v1/book/matches', noSports).expect(200)).body).toEqual([]);
  });

  it('serves match objects with the decided fields', async () => {
    const matches = (await get('/v1/book/matches', both, { sport: SOCCER }).expect(200)).body as Record<
      string,
      unknown
    >[];
    const match = matches.find((m) => m.id === MATCH);
    expect(match).toEqual({
      id: MATCH,
      sport_id: SOCCER,
      league_id: 1980,
      league_name: 'England - Premier League',
      home: 'Arsenal',
      away: 'Chelsea',
      start_time: '2099-01-01T12:00:00Z',
      is_live: false,
      parent_id: null,
      version: expect.any(Number) as unknown,
    });
    expect(matches.find((m) => m.id === SPECIAL)).toEqual(
      expect.objectContaining({ special: 'Arsenal v Chelsea - First Goalscorer' }),
    );
  });

  it('serves the flattened odds of a match', async () => {
    const body = (await get('/v1/book/odds', both, { match: MATCH }).expect(200)).body as {
      match_id: number;
      sport_id: number;
      ts: number;
      selections: Selection[];
    };
    expect(body.match_id).toBe(MATCH);
    expect(body.sport_id).toBe(SOCCER);
    expect(Number.isInteger(body.ts)).toBe(true);
    const byName = (name: string) =>
      body.selections.filter((s) => s.market_name === name).map((s) => s.bet_name);
    expect(byName('Match - Money Line').sort()).toEqual(['Arsenal', 'Chelsea', 'Draw']);
    expect(byName('Match - Handicap').sort()).toEqual(['Arsenal -1.5', 'Chelsea +1.5']);
    expect(byName('Match - Total').sort()).toEqual(['Over 2.5', 'Under 2.5']);
    expect(byName('Match - Team Total - Arsenal').sort()).toEqual(['Over 1.5', 'Under 1.5']);
    const over = body.selections.find((s) => s.bet_name === 'Over 2.5');
    expect(over).toEqual(
      expect.objectContaining({
        price: -110,
        decimal: 1.909,
        line: 2.5,
        status: 'unlocked',
        limit: 5000,
        period: 0,
      }),
    );
    expect(over?.cutoff_at).toBe('2099-01-01T12:00:00Z');
    const special = (await get('/v1/book/odds', both, { match: SPECIAL }).expect(200)).body as {
      selections: Selection[];
    };
    expect(special.selections.map((s) => [s.market_name, s.bet_name])).toEqual([
      ['Arsenal v Chelsea - First Goalscorer', 'Bukayo Saka'],
      ['Arsenal v Chelsea - First Goalscorer', 'Cole Palmer'],
    ]);
  });

  it('refuses odds of a match in an ungranted sport, naming the sport', async () => {
    expect((await get('/v1/book/odds', soccerOnly, { match: TENNIS_MATCH }).expect(403)).body).toEqual({
      error: `API key not permitted for sport ${TENNIS}`,
    });
    expect((await get('/v1/book/odds', noSports, { match: MATCH }).expect(403)).body).toEqual({
      error: `API key not permitted for sport ${SOCCER}`,
    });
  });

  it('answers 404 for an unknown match and 400 naming a bad or missing parameter', async () => {
    expect((await get('/v1/book/odds', both, { match: 42 }).expect(404)).body).toEqual({
      error: 'match not found: 42',
    });
    expect((await get('/v1/book/odds', both).expect(400)).body).toEqual({
      error: 'invalid parameter: match',
    });
    expect((await get('/v1/book/odds', both, { match: 'abc' }).expect(400)).body).toEqual({
      error: 'invalid parameter: match',
    });
    expect((await get('/v1/book/leagues', both, { sport: '1.5' }).expect(400)).body).toEqual({
      error: 'invalid parameter: sport',
    });
    expect((await get('/v1/book/matches', both, { league: '' }).expect(400)).body).toEqual({
      error: 'invalid parameter: league',
    });
    // unknown parameters are ignored; the first of repeated ones wins
    await get(`/v1/book/odds?match=${MATCH}&match=zzz&foo=bar`, both).expect(200);
  });

  it.each([
    ['/v1/book/sports'],
    ['/v1/book/leagues'],
    ['/v1/book/matches'],
    [`/v1/book/odds?match=${MATCH}`],
  ])('applies the auth errors byte for byte on %s', async (path) => {
    expect((await get(path).expect(401)).text).toBe('{"error":"invalid or inactive API key"}');
    expect((await get(path, 'sk_not_a_real_key_000000000000000000').expect(401)).body).toEqual({
      error: 'invalid or inactive API key',
    });
    expect((await get(path, noOdds).expect(403)).body).toEqual({ error: 'missing required scope: odds' });
    expect((await get(path, otherBook).expect(403)).body).toEqual({
      error: 'API key not permitted for sportsbook: book',
    });
  });

  it('accepts the key in the query parameter, the header winning over it', async () => {
    await get('/v1/book/sports', undefined, { key: both }).expect(200);
    await request(http(app)).get('/v1/book/sports').query({ key: both }).set('X-API-Key', noOdds).expect(403);
  });

  it('serves a valid OpenAPI description at /v1/book/docs', async () => {
    const doc = (await get('/v1/book/docs-json').expect(200)).body as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v1/book',
        '/v1/book/sports',
        '/v1/book/leagues',
        '/v1/book/matches',
        '/v1/book/odds',
      ]),
    );
    await get('/v1/book/docs').expect(200);
  });
});
