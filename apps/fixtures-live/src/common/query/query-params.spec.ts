import { UnprocessableEntityException } from '@nestjs/common';
import {
  firstValue,
  optionalDateTime,
  optionalEnum,
  pageQuery,
  pathId,
  queryId,
  requiredInteger,
} from './query-params';

function detailOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(UnprocessableEntityException);
    return (error as UnprocessableEntityException).message;
  }
  throw new Error('expected a 422');
}

describe('query parameters', () => {
  it('takes the first of repeated values and treats empty as absent', () => {
    expect(firstValue({ league: ['3', '4'] }, 'league')).toBe('3');
    expect(firstValue({ league: '' }, 'league')).toBeUndefined();
  });

  it('names a missing or non-integer required parameter', () => {
    expect(detailOf(() => requiredInteger({}, 'league'))).toBe('missing required parameter: league');
    expect(detailOf(() => requiredInteger({ league: 'abc' }, 'league'))).toContain('league');
    expect(detailOf(() => requiredInteger({ league: '1.5' }, 'league'))).toContain('must be an integer');
    expect(detailOf(() => requiredInteger({ league: '1e3' }, 'league'))).toContain('must be an integer');
    expect(detailOf(() => requiredInteger({ league: '99999999999999999999' }, 'league'))).toContain(
      'out of range',
    );
    expect(requiredInteger({ league: ' 42 ' }, 'league')).toBe(42);
  });

  it('rejects limit below 1 and offset below 0 but leaves clamping to the pager', () => {
    expect(detailOf(() => pageQuery({ limit: '0' }))).toBe('invalid parameter limit: must be at least 1');
    expect(detailOf(() => pageQuery({ offset: '-1' }))).toBe('invalid parameter offset: must be at least 0');
    expect(detailOf(() => pageQuery({ limit: 'x' }))).toContain('limit');
    expect(pageQuery({ limit: '1000', offset: '5' })).toEqual({ limit: 1000, offset: 5 });
    expect(pageQuery({})).toEqual({ limit: undefined, offset: undefined });
  });

  it('parses UTC datetimes and names an unparsable one', () => {
    expect(optionalDateTime({ start_after: '2026-11-21T15:00:00Z' }, 'start_after')).toEqual(
      new Date('2026-11-21T15:00:00Z'),
    );
    expect(optionalDateTime({ start_after: '2026-11-21T16:00:00+01:00' }, 'start_after')).toEqual(
      new Date('2026-11-21T15:00:00Z'),
    );
    for (const bad of [
      'yesterday',
      '2026-11-21',
      '2026-02-30T00:00:00Z',
      '2026-11-21T25:00:00Z',
      '1700000000',
    ]) {
      expect(detailOf(() => optionalDateTime({ start_before: bad }, 'start_before'))).toContain(
        'start_before',
      );
    }
  });

  it('accepts only the listed values of an enum', () => {
    const statuses = ['NOT_STARTED', 'STARTED'] as const;
    expect(optionalEnum({ status: 'STARTED' }, 'status', statuses)).toBe('STARTED');
    expect(detailOf(() => optionalEnum({ status: 'started' }, 'status', statuses))).toContain('status');
  });

  it('maps ids no row can have to null instead of an error', () => {
    expect(pathId('7', 'match_id')).toBe(7);
    expect(pathId('0', 'match_id')).toBeNull();
    expect(pathId('3000000000', 'match_id')).toBeNull();
    expect(detailOf(() => pathId('abc', 'match_id'))).toBe('invalid parameter match_id: must be an integer');
    expect(queryId({ sport: '-4' }, 'sport')).toBeNull();
  });
});
