import { BadRequestException, type Type } from '@nestjs/common';
import fc from 'fast-check';
import { BookMatchesQueryDto, BookOddsQueryDto } from '../../catalog/book.query.dto';
import { oddsValidationPipe } from './odds-validation.pipe';

function read(metatype: Type, query: Record<string, unknown>): Promise<unknown> {
  return oddsValidationPipe().transform(query, { type: 'query', metatype });
}

describe('odds-passthrough parameter validation', () => {
  it('reads an integer, the first of repeated values, and drops parameters a route does not take', async () => {
    expect(await read(BookMatchesQueryDto, { sport: '29', key: 'sk_x' })).toEqual({ sport: 29 });
    expect(await read(BookMatchesQueryDto, { sport: ['4', '29'] })).toEqual({ sport: 4 });
    expect(await read(BookMatchesQueryDto, {})).toEqual({});
  });

  it.each([[''], ['abc'], ['1.5'], ['-3'], [' 4'], ['1e3'], ['9999999999999999'], [{ a: '1' }]])(
    'answers match=%j with 400 invalid parameter: match',
    async (value) => {
      await expect(read(BookOddsQueryDto, { match: value })).rejects.toThrow(
        new BadRequestException('invalid parameter: match'),
      );
    },
  );

  it('refuses a missing required parameter, and names the first bad one in route order', async () => {
    await expect(read(BookOddsQueryDto, {})).rejects.toThrow('invalid parameter: match');
    await expect(read(BookMatchesQueryDto, { league: 'x', sport: 'y' })).rejects.toThrow(
      'invalid parameter: sport',
    );
  });

  it('answers any generated query with ids or a 400 naming one of its parameters, never anything else', async () => {
    const value = fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 3 }), fc.anything());
    const query = fc.record({ sport: value, league: value }, { requiredKeys: [] });
    await fc.assert(
      fc.asyncProperty(query, async (raw) => {
        try {
          const ids = (await read(BookMatchesQueryDto, raw)) as Record<string, unknown>;
          for (const id of Object.values(ids))
            if (id !== undefined) expect(Number.isSafeInteger(id)).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(BadRequestException);
          expect((error as BadRequestException).message).toMatch(/^invalid parameter: (sport|league)$/);
        }
      }),
      { numRuns: 300 },
    );
  });
});
