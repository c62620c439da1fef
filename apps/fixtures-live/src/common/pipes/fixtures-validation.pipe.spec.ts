import { type ArgumentsHost, HttpException, type Type } from '@nestjs/common';
import fc from 'fast-check';
import { SportPageQueryDto } from '../../catalog/leagues.query.dto';
import { MatchPathDto } from '../../catalog/match-path.dto';
import { LeaguePageQueryDto, LiveMatchesQueryDto, MatchListQueryDto } from '../../catalog/matches.query.dto';
import { CATALOG_STATUSES } from '../../live/domain/snapshot.types';
import { FixturesExceptionFilter } from '../filters/fixtures-exception.filter';
import {
  firstValue,
  readDateTime,
  readId,
  readInteger,
  readOneOf,
  type Reading,
} from '../query/query-values';
import { fixturesValidationPipe } from './fixtures-validation.pipe';

const pipe = fixturesValidationPipe();

type Answer =
  { readonly value: Record<string, unknown> } | { readonly status: number; readonly body: unknown };

/** What the application makes of raw parameters: the DTO the handler gets, or the error response. */
async function answer(
  dto: Type,
  raw: Record<string, unknown>,
  type: 'query' | 'param' = 'query',
): Promise<Answer> {
  try {
    return { value: { ...((await pipe.transform(raw, { type, metatype: dto })) as object) } };
  } catch (error) {
    if (!(error instanceof HttpException)) throw error;
    const response = { status: jest.fn(), json: jest.fn() };
    response.status.mockReturnValue(response);
    const host = {
      switchToHttp: () => ({ getResponse: () => response, getRequest: () => undefined }),
    } as unknown as ArgumentsHost;
    new FixturesExceptionFilter().catch(error, host);
    return {
      status: (response.status.mock.calls as unknown[][])[0][0] as number,
      body: (response.json.mock.calls as unknown[][])[0][0],
    };
  }
}

async function detailOf(dto: Type, raw: Record<string, unknown>, type: 'query' | 'param' = 'query') {
  const answered = await answer(dto, raw, type);
  if ('value' in answered) throw new Error(`expected a 422, got ${JSON.stringify(answered.value)}`);
  expect(answered.status).toBe(422);
  expect(Object.keys(answered.body as object)).toEqual(['detail']);
  return (answered.body as { detail: string }).detail;
}

async function valueOf(dto: Type, raw: Record<string, unknown>, type: 'query' | 'param' = 'query') {
  const answered = await answer(dto, raw, type);
  if (!('value' in answered)) throw new Error(`expected a value, got ${JSON.stringify(answered.body)}`);
  return answered.value;
}

describe('fixtures-live parameter validation', () => {
  it('takes the first of repeated values and treats empty as absent', async () => {
    expect(await valueOf(LeaguePageQueryDto, { league: ['3', '4'] })).toMatchObject({ league: 3 });
    expect(await detailOf(LeaguePageQueryDto, { league: '' })).toBe('missing required parameter: league');
    expect(await detailOf(LeaguePageQueryDto, { league: ['', '3'] })).toBe(
      'missing required parameter: league',
    );
    expect(await valueOf(LeaguePageQueryDto, { league: '3', limit: ['5', 'x'], offset: '' })).toEqual({
      league: 3,
      limit: 5,
      offset: undefined,
    });
  });

  it('names a missing or non-integer required parameter', async () => {
    expect(await detailOf(LeaguePageQueryDto, {})).toBe('missing required parameter: league');
    expect(await detailOf(LeaguePageQueryDto, { league: 'abc' })).toBe(
      'invalid parameter league: must be an integer',
    );
    expect(await detailOf(LeaguePageQueryDto, { league: '1.5' })).toContain('must be an integer');
    expect(await detailOf(LeaguePageQueryDto, { league: '1e3' })).toContain('must be an integer');
    expect(await detailOf(LeaguePageQueryDto, { league: '99999999999999999999' })).toBe(
      'invalid parameter league: is out of range',
    );
    expect(await valueOf(LeaguePageQueryDto, { league: ' 42 ' })).toMatchObject({ league: 42 });
    expect(await detailOf(LiveMatchesQueryDto, { sport: 'soccer' })).toBe(
      'invalid parameter sport: must be an integer',
    );
  });

  it('rejects limit below 1 and offset below 0 but leaves clamping to the pager', async () => {
    expect(await detailOf(SportPageQueryDto, { sport: '1', limit: '0' })).toBe(
      'invalid parameter limit: must be at least 1',
    );
    expect(await detailOf(SportPageQueryDto, { sport: '1', offset: '-1' })).toBe(
      'invalid parameter offset: must be at least 0',
    );
    expect(await detailOf(SportPageQueryDto, { sport: '1', limit: 'x' })).toBe(
      'invalid parameter limit: must be an integer',
    );
    expect(await valueOf(SportPageQueryDto, { sport: '1', limit: '1000', offset: '5' })).toEqual({
      sport: 1,
      limit: 1000,
      offset: 5,
    });
    expect(await valueOf(SportPageQueryDto, { sport: '1' })).toEqual({
      sport: 1,
      limit: undefined,
      offset: undefined,
    });
  });

  it('parses UTC datetimes and names an unparsable one', async () => {
    expect(
      await valueOf(MatchListQueryDto, {
        league: '1',
        start_after: '2026-11-21T15:00:00Z',
        start_before: '2026-11-21T16:00:00+01:00',
      }),
    ).toMatchObject({
      start_after: new Date('2026-11-21T15:00:00Z'),
      start_before: new Date('2026-11-21T15:00:00Z'),
    });
    for (const bad of [
      'yesterday',
      '2026-11-21',
      '2026-02-30T00:00:00Z',
      '2026-11-21T25:00:00Z',
      '1700000000',
    ]) {
      expect(await detailOf(MatchListQueryDto, { league: '1', start_before: bad })).toBe(
        'invalid parameter start_before: must be a UTC datetime such as 2026-11-21T15:00:00Z',
      );
    }
  });

  it('accepts only the listed values of status', async () => {
    expect(await valueOf(MatchListQueryDto, { league: '1', status: 'STARTED' })).toMatchObject({
      status: 'STARTED',
    });
    expect(await detailOf(MatchListQueryDto, { league: '1', status: 'started' })).toBe(
      'invalid parameter status: must be one of NOT_STARTED, STARTED, CLOSE_OF_PLAY, FINISHED',
    );
  });

  it('maps ids no row can have to null instead of an error', async () => {
    expect(await valueOf(MatchPathDto, { match_id: '7' }, 'param')).toEqual({ match_id: 7 });
    expect(await valueOf(MatchPathDto, { match_id: '0' }, 'param')).toEqual({ match_id: null });
    expect(await valueOf(MatchPathDto, { match_id: '3000000000' }, 'param')).toEqual({ match_id: null });
    expect(await detailOf(MatchPathDto, { match_id: 'abc' }, 'param')).toBe(
      'invalid parameter match_id: must be an integer',
    );
    expect(await detailOf(MatchPathDto, { match_id: '99999999999999999999' }, 'param')).toBe(
      'invalid parameter match_id: is out of range',
    );
    expect(await valueOf(LiveMatchesQueryDto, { sport: '-4' })).toEqual({ sport: null });
  });

  it('names the first bad parameter in the order the routes always have', async () => {
    const bad = {
      league: 'x',
      status: 'LIVE',
      start_after: 'y',
      start_before: 'z',
      limit: '0',
      offset: 'w',
    };
    const order = async (query: Record<string, unknown>) => detailOf(MatchListQueryDto, query);
    expect(await order(bad)).toBe('invalid parameter league: must be an integer');
    expect(await order({ ...bad, league: '1' })).toContain('status');
    expect(await order({ ...bad, league: '1', status: 'FINISHED' })).toContain('start_after');
    expect(await order({ league: '1', start_before: 'z', limit: 'x' })).toContain('start_before');
    // Every parameter is read before any bound is checked.
    expect(await order({ league: '1', limit: '0', offset: 'w' })).toBe(
      'invalid parameter offset: must be an integer',
    );
    expect(await order({ league: '1', limit: '0', offset: '-1' })).toBe(
      'invalid parameter limit: must be at least 1',
    );
    expect(await order({ league: '1', limit: 'x', offset: '-1' })).toBe(
      'invalid parameter limit: must be an integer',
    );
    expect(await order({ limit: '0', offset: 'w' })).toBe('missing required parameter: league');
  });

  it('ignores parameters a route does not take, and never lets them through', async () => {
    const value = await valueOf(LiveMatchesQueryDto, {
      sport: '2',
      limit: '0',
      key: 'sk_x',
      foo: ['a', 'b'],
    });
    expect(value).toEqual({ sport: 2 });
  });

  it('answers a repeated query with an equal DTO of its own, and refuses a repeated bad one each time', async () => {
    const raw = { league: '7', start_after: '2026-11-21T15:00:00Z', limit: '100' };
    const first = (await pipe.transform(
      { ...raw },
      { type: 'query', metatype: MatchListQueryDto },
    )) as object;
    const again = (await pipe.transform(
      { ...raw },
      { type: 'query', metatype: MatchListQueryDto },
    )) as object;
    expect(again).toBeInstanceOf(MatchListQueryDto);
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
    expect((again as MatchListQueryDto).start_after).not.toBe((first as MatchListQueryDto).start_after);
    // Another DTO class reads the same text its own way.
    expect(await valueOf(LeaguePageQueryDto, { ...raw })).toEqual({ league: 7, limit: 100 });
    for (let i = 0; i < 2; i++) {
      expect(await detailOf(MatchListQueryDto, { league: '7', limit: '0' })).toBe(
        'invalid parameter limit: must be at least 1',
      );
    }
  });

  describe('under generated parameters', () => {
    const text = fc.oneof(
      fc.constantFrom(
        '',
        '0',
        '1',
        '-1',
        ' 7 ',
        '1.5',
        '1e3',
        '\u0000',
        '2147483648',
        '99999999999999999999',
      ),
      fc.constantFrom('STARTED', 'started', '2026-11-21T15:00:00Z', '2026-02-30T00:00:00Z', '2026-11-21'),
      fc.integer().map(String),
      fc.string(),
      fc.string({ minLength: 5_000, maxLength: 20_000 }),
    );
    const raw: fc.Arbitrary<unknown> = fc.oneof(
      { weight: 6, arbitrary: text },
      { weight: 2, arbitrary: fc.array(text, { maxLength: 3 }) },
      // More than the `simple` parser makes (nested objects, as an extended parser would): still never a 500.
      {
        weight: 1,
        arbitrary: fc.anything({ withNullPrototype: true, withObjectString: true }),
      },
    );
    const name = fc.constantFrom(
      'sport',
      'league',
      'status',
      'start_after',
      'start_before',
      'limit',
      'offset',
      'match_id',
      'key',
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
    );
    /** A query as the `simple` parser builds it: an object without a prototype. */
    const query = fc.array(fc.tuple(name, raw), { maxLength: 8 }).map((pairs) => {
      const built = Object.create(null) as Record<string, unknown>;
      for (const [key, value] of pairs) built[key] = value;
      return built;
    });

    const dtos: [string, Type, string[]][] = [
      ['SportPageQueryDto', SportPageQueryDto, ['sport', 'limit', 'offset']],
      [
        'MatchListQueryDto',
        MatchListQueryDto,
        ['league', 'status', 'start_after', 'start_before', 'limit', 'offset'],
      ],
      ['LeaguePageQueryDto', LeaguePageQueryDto, ['league', 'limit', 'offset']],
      ['LiveMatchesQueryDto', LiveMatchesQueryDto, ['sport']],
      ['MatchPathDto', MatchPathDto, ['match_id']],
    ];
    const problems = [
      'must be an integer',
      'is out of range',
      'must be at least 1',
      'must be at least 0',
      'must be a UTC datetime such as 2026-11-21T15:00:00Z',
      `must be one of ${CATALOG_STATUSES.join(', ')}`,
    ];

    it.each(dtos)(
      'answers %s with its value or a 422 in the exact wording, never anything else',
      async (_name, dto, names) => {
        const detail = new RegExp(
          `^(missing required parameter: (${names.join('|')})|invalid parameter (${names.join('|')}): (${problems.join('|')}))$`,
        );
        await fc.assert(
          fc.asyncProperty(query, async (raw) => {
            const answered = await answer(dto, raw);
            if ('value' in answered) {
              expect(Object.keys(answered.value).every((key) => names.includes(key))).toBe(true);
            } else {
              expect(answered.status).toBe(422);
              expect((answered.body as { detail: string }).detail).toMatch(detail);
            }
          }),
          { numRuns: 500 },
        );
      },
    );

    /** The rules of `/matches`, written out once more as a sequence of checks. */
    function expectedDetail(raw: Record<string, unknown>): string | undefined {
      const readers: [string, (text: string) => Reading<unknown>][] = [
        ['league', readId],
        ['status', readOneOf(CATALOG_STATUSES)],
        ['start_after', readDateTime],
        ['start_before', readDateTime],
        ['limit', readInteger],
        ['offset', readInteger],
      ];
      const values = new Map<string, unknown>();
      for (const [name, read] of readers) {
        const text = firstValue(raw[name]);
        if (text === undefined) {
          if (name === 'league') return 'missing required parameter: league';
          continue;
        }
        const reading = read(text);
        if ('problem' in reading) return `invalid parameter ${name}: ${reading.problem}`;
        values.set(name, reading.value);
      }
      if ((values.get('limit') as number) < 1) return 'invalid parameter limit: must be at least 1';
      if ((values.get('offset') as number) < 0) return 'invalid parameter offset: must be at least 0';
      return undefined;
    }

    it('names the same parameter and problem as the rules do, in their order', async () => {
      await fc.assert(
        fc.asyncProperty(query, async (raw) => {
          const expected = expectedDetail(raw);
          const answered = await answer(MatchListQueryDto, raw);
          expect('value' in answered ? undefined : (answered.body as { detail: string }).detail).toBe(
            expected,
          );
        }),
        { numRuns: 2_000 },
      );
    });
  });
});
