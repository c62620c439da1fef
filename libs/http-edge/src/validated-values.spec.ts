import { copyOfValidated, rawValueKey, ValidatedValues } from './validated-values';

class PageQuery {
  league!: number;
  start_after?: Date;
}

describe('rawValueKey', () => {
  it('keys what the query parser builds: strings and string lists, in their order', () => {
    expect(rawValueKey({ league: '7', limit: '100' })).toBe('{"league":"7","limit":"100"}');
    expect(rawValueKey({ league: ['7', '8'] })).toBe('{"league":["7","8"]}');
    expect(rawValueKey({ league: '7' })).not.toBe(rawValueKey({ league: ['7'] }));
    expect(rawValueKey({ limit: '1', league: '7' })).not.toBe(rawValueKey({ league: '7', limit: '1' }));
    const parsed = Object.assign(Object.create(null) as object, { league: '7' });
    expect(rawValueKey(parsed)).toBe('{"league":"7"}');
    expect(rawValueKey({})).toBe('{}');
  });

  it('leaves ignored parameters out, so a key in the URL is never kept and keys share entries', () => {
    const ignored = new Set(['key']);
    expect(rawValueKey({ league: '7', key: 'sk_secret' }, ignored)).toBe('{"league":"7"}');
    expect(rawValueKey({ key: 'sk_a', league: '7' }, ignored)).toBe(rawValueKey({ league: '7' }));
    expect(rawValueKey({ key: ['sk_a', 'sk_b'] }, ignored)).toBe('{}');
    // what is left out is not checked either: it never reaches a DTO
    expect(rawValueKey({ league: '7', key: { nested: '1' } }, ignored)).toBe('{"league":"7"}');
    expect(rawValueKey({ league: '7', key: 'sk_secret' })).toContain('sk_secret');
  });

  it('refuses anything else, so the pipe validates it every time', () => {
    for (const value of [
      undefined,
      null,
      '7',
      ['7'],
      { league: 7 },
      { league: { nested: '1' } },
      { league: ['7', 8] },
      { league: undefined },
      { league: Object.assign(new Array<string>(3), { 0: '7', 2: '8' }) },
      JSON.parse('{"__proto__": "x"}') as object,
      { constructor: '1' },
      { league: 'x'.repeat(2000) },
    ]) {
      expect(rawValueKey(value)).toBeUndefined();
    }
  });
});

describe('copyOfValidated', () => {
  it('copies the DTO with its class and fresh dates', () => {
    const original = Object.assign(new PageQuery(), { league: 7, start_after: new Date(0) });
    const copy = copyOfValidated(original);
    expect(copy).toBeInstanceOf(PageQuery);
    expect(copy).toEqual(original);
    expect(copy).not.toBe(original);
    copy.start_after?.setTime(1000);
    copy.league = 8;
    expect(original).toEqual(Object.assign(new PageQuery(), { league: 7, start_after: new Date(0) }));
  });
});

describe('ValidatedValues', () => {
  it('remembers per class and key', () => {
    const values = new ValidatedValues(10);
    const dto = { league: 7 };
    values.set(PageQuery, 'a', dto);
    expect(values.get(PageQuery, 'a')).toBe(dto);
    expect(values.get(PageQuery, 'b')).toBeUndefined();
    expect(values.get(Object, 'a')).toBeUndefined();
  });

  it('starts afresh when full', () => {
    const values = new ValidatedValues(2);
    values.set(PageQuery, 'a', { league: 1 });
    values.set(PageQuery, 'a', { league: 1 });
    values.set(PageQuery, 'b', { league: 2 });
    expect(values.get(PageQuery, 'a')).toBeDefined();
    values.set(PageQuery, 'c', { league: 3 });
    expect(values.get(PageQuery, 'a')).toBeUndefined();
    expect(values.get(PageQuery, 'b')).toBeUndefined();
    expect(values.get(PageQuery, 'c')).toEqual({ league: 3 });
  });
});
