import { pageEnvelope, resolvePage } from './pagination';

describe('resolvePage', () => {
  it('defaults to 100 records from the start', () => {
    expect(resolvePage({})).toEqual({ limit: 100, offset: 0 });
  });

  it('keeps values in range', () => {
    expect(resolvePage({ limit: 1, offset: 0 })).toEqual({ limit: 1, offset: 0 });
    expect(resolvePage({ limit: 200, offset: 4000 })).toEqual({ limit: 200, offset: 4000 });
  });

  it('clamps a limit above 200 to 200', () => {
    expect(resolvePage({ limit: 201 })).toEqual({ limit: 200, offset: 0 });
    expect(resolvePage({ limit: 1_000_000 })).toEqual({ limit: 200, offset: 0 });
  });

  it('stays total on values the REST layer would have rejected', () => {
    expect(resolvePage({ limit: 0, offset: -5 })).toEqual({ limit: 1, offset: 0 });
    expect(resolvePage({ limit: -3 })).toEqual({ limit: 1, offset: 0 });
    expect(resolvePage({ limit: Number.NaN, offset: Number.POSITIVE_INFINITY })).toEqual({
      limit: 100,
      offset: 0,
    });
    expect(resolvePage({ limit: 10.7, offset: 3.2 })).toEqual({ limit: 10, offset: 3 });
  });
});

describe('pageEnvelope', () => {
  it('describes a first full page with more to come', () => {
    expect(pageEnvelope(['a', 'b'], 5, 2, 0)).toEqual({
      items: ['a', 'b'],
      total: 5,
      limit: 2,
      offset: 0,
      count: 2,
      page: 1,
      total_pages: 3,
      has_more: true,
    });
  });

  it('describes the last, partial page', () => {
    expect(pageEnvelope(['e'], 5, 2, 4)).toMatchObject({
      count: 1,
      page: 3,
      total_pages: 3,
      has_more: false,
    });
  });

  it('describes an exact last page', () => {
    expect(pageEnvelope(['c', 'd'], 4, 2, 2)).toMatchObject({ page: 2, total_pages: 2, has_more: false });
  });

  it('numbers pages from offsets that are not multiples of the limit', () => {
    expect(pageEnvelope(['b', 'c'], 10, 2, 1)).toMatchObject({ page: 1, has_more: true });
    expect(pageEnvelope(['d', 'e', 'f'], 10, 3, 3)).toMatchObject({
      page: 2,
      total_pages: 4,
      has_more: true,
    });
  });

  it('describes an empty result', () => {
    expect(pageEnvelope([], 0, 100, 0)).toEqual({
      items: [],
      total: 0,
      limit: 100,
      offset: 0,
      count: 0,
      page: 1,
      total_pages: 0,
      has_more: false,
    });
  });

  it('describes an offset past the end', () => {
    expect(pageEnvelope([], 3, 100, 500)).toMatchObject({
      count: 0,
      page: 6,
      total_pages: 1,
      has_more: false,
    });
  });

  it('lets a client page through everything without skips or repeats', () => {
    const all = Array.from({ length: 7 }, (_, i) => i);
    const seen: number[] = [];
    let offset = 0;
    for (;;) {
      const { limit } = resolvePage({ limit: 3, offset });
      const page = pageEnvelope(all.slice(offset, offset + limit), all.length, limit, offset);
      seen.push(...page.items);
      if (!page.has_more) break;
      offset += limit;
    }
    expect(seen).toEqual(all);
  });
});
