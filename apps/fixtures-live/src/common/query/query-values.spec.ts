import fc from 'fast-check';
import { firstValue, MAX_ID, readDateTime, readId, readInteger, readOneOf } from './query-values';

describe('query values', () => {
  it('takes the first of repeated values and treats empty as absent', () => {
    expect(firstValue(['3', '4'])).toBe('3');
    expect(firstValue('')).toBeUndefined();
    expect(firstValue(['', '4'])).toBeUndefined();
    expect(firstValue(undefined)).toBeUndefined();
    expect(firstValue([])).toBeUndefined();
  });

  it('turns a value the query parser never makes into text that reads as nothing', () => {
    for (const raw of [{ a: '1' }, [{ a: '1' }], [['1']], 5, true]) {
      expect(readInteger(firstValue(raw) ?? '')).toEqual({ problem: 'must be an integer' });
    }
  });

  it('reads integers, surrounding blanks allowed, and says why a text is not one', () => {
    expect(readInteger(' 42 ')).toEqual({ value: 42 });
    expect(readInteger('+7')).toEqual({ value: 7 });
    expect(readInteger('-7')).toEqual({ value: -7 });
    for (const bad of ['abc', '1.5', '1e3', '', ' ', '0x10', '1_000', '\u0000']) {
      expect(readInteger(bad)).toEqual({ problem: 'must be an integer' });
    }
    expect(readInteger('99999999999999999999')).toEqual({ problem: 'is out of range' });
    expect(readInteger('9007199254740992')).toEqual({ problem: 'is out of range' });
    expect(readInteger('9007199254740991')).toEqual({ value: 9007199254740991 });
  });

  it('maps ids no row can have to null instead of a problem', () => {
    expect(readId('7')).toEqual({ value: 7 });
    expect(readId(String(MAX_ID))).toEqual({ value: MAX_ID });
    expect(readId('0')).toEqual({ value: null });
    expect(readId('-4')).toEqual({ value: null });
    expect(readId('3000000000')).toEqual({ value: null });
    expect(readId('abc')).toEqual({ problem: 'must be an integer' });
    expect(readId('99999999999999999999')).toEqual({ problem: 'is out of range' });
  });

  it('reads any safe integer text back as itself', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (value) => {
        expect(readInteger(String(value))).toEqual({ value });
        const id = readId(String(value));
        expect(id).toEqual({ value: value >= 1 && value <= MAX_ID ? value : null });
      }),
    );
  });

  it('reads UTC datetimes with an offset or Z, and only dates that exist', () => {
    expect(readDateTime('2026-11-21T15:00:00Z')).toEqual({ value: new Date('2026-11-21T15:00:00Z') });
    expect(readDateTime('2026-11-21T16:00:00+01:00')).toEqual({ value: new Date('2026-11-21T15:00:00Z') });
    expect(readDateTime(' 2026-11-21T15:00:00.250Z ')).toEqual({
      value: new Date('2026-11-21T15:00:00.250Z'),
    });
    expect(readDateTime('2024-02-29T00:00:00Z')).toEqual({ value: new Date('2024-02-29T00:00:00Z') });
    for (const bad of [
      'yesterday',
      '2026-11-21',
      '2026-02-30T00:00:00Z',
      '2025-02-29T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-11-21T25:00:00Z',
      '2026-11-21T24:00:00Z',
      '2026-11-21T23:60:00Z',
      '2026-11-21T23:59:60Z',
      '2026-11-21T15:00:00',
      '1700000000',
    ]) {
      expect(readDateTime(bad)).toEqual({ problem: 'must be a UTC datetime such as 2026-11-21T15:00:00Z' });
    }
  });

  it('reads a datetime back as the instant it was written from', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('0001-01-01T00:00:00Z'),
          max: new Date('9999-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        (at) => {
          expect(readDateTime(at.toISOString())).toEqual({ value: at });
        },
      ),
    );
  });

  it('accepts only the listed values of an enum, case included', () => {
    const status = readOneOf(['NOT_STARTED', 'STARTED'] as const);
    expect(status('STARTED')).toEqual({ value: 'STARTED' });
    expect(status('started')).toEqual({ problem: 'must be one of NOT_STARTED, STARTED' });
    expect(status(' STARTED')).toEqual({ problem: 'must be one of NOT_STARTED, STARTED' });
  });
});
