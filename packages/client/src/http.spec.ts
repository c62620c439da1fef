import { ApiError, AuthError, InvalidRequestError, NotFoundError, RateLimitError } from './errors';
import { type FetchLike, HttpClient } from './http';
import { collect, paginate } from './paginate';

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A fetch that answers from a script and records the headers it was sent. */
function scripted(answers: Answer[]) {
  const sent: { url: string; headers: Record<string, string> }[] = [];
  const fetch: FetchLike = (url, init) => {
    sent.push({ url, headers: init.headers });
    const answer = answers.shift();
    if (!answer) throw new Error('no more answers');
    const headers = new Map(Object.entries(answer.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    return Promise.resolve({
      status: answer.status,
      statusText: '',
      headers: { get: (name: string) => headers.get(name.toLowerCase()) ?? null },
      text: () => Promise.resolve(answer.body === undefined ? '' : JSON.stringify(answer.body)),
    });
  };
  return { fetch, sent };
}

describe('HttpClient', () => {
  const sleeps: number[] = [];
  const sleep = (ms: number) => {
    sleeps.push(ms);
    return Promise.resolve();
  };
  beforeEach(() => (sleeps.length = 0));

  it('sends the key and the query, skipping undefined values', async () => {
    const { fetch, sent } = scripted([{ status: 200, body: [1] }]);
    const http = new HttpClient('fixtures-live', { baseUrl: 'http://h/v1/', apiKey: 'sk_x', fetch });
    expect(await http.get('/leagues', { sport: 1, limit: undefined })).toEqual([1]);
    expect(sent[0].url).toBe('http://h/v1/leagues?sport=1');
    expect(sent[0].headers['X-API-Key']).toBe('sk_x');
  });

  it('reuses the cached body on 304, sending the last ETag', async () => {
    const { fetch, sent } = scripted([
      { status: 200, body: { n: 1 }, headers: { ETag: '"a"' } },
      { status: 304, headers: { ETag: '"a"' } },
      { status: 200, body: { n: 2 }, headers: { ETag: '"b"' } },
    ]);
    const http = new HttpClient('fixtures-live', { baseUrl: 'http://h', apiKey: 'k', fetch });
    expect(await http.get('/x')).toEqual({ n: 1 });
    expect(sent[0].headers['If-None-Match']).toBeUndefined();
    expect(await http.get('/x')).toEqual({ n: 1 });
    expect(sent[1].headers['If-None-Match']).toBe('"a"');
    expect(await http.get('/x')).toEqual({ n: 2 });
    expect(sent[2].headers['If-None-Match']).toBe('"a"');
    expect(http.counters.notModified).toBe(1);
  });

  it('sends no If-None-Match when the cache is off', async () => {
    const { fetch, sent } = scripted([
      { status: 200, body: 1, headers: { ETag: '"a"' } },
      { status: 200, body: 1, headers: { ETag: '"a"' } },
    ]);
    const http = new HttpClient('fixtures-live', {
      baseUrl: 'http://h',
      apiKey: 'k',
      fetch,
      etagCache: false,
    });
    await http.get('/x');
    await http.get('/x');
    expect(sent[1].headers['If-None-Match']).toBeUndefined();
  });

  it('waits out a 429 for Retry-After and tries again', async () => {
    const { fetch, sent } = scripted([
      { status: 429, body: { error: 'rate limit exceeded' }, headers: { 'Retry-After': '2' } },
      { status: 429, body: { error: 'rate limit exceeded' }, headers: { 'Retry-After': '1' } },
      { status: 200, body: [] },
    ]);
    const http = new HttpClient('odds-passthrough', { baseUrl: 'http://h', apiKey: 'k', fetch, sleep });
    expect(await http.get('/sports')).toEqual([]);
    expect(sleeps).toEqual([2_000, 1_000]);
    expect(sent).toHaveLength(3);
    expect(http.counters.rateLimited).toBe(2);
  });

  it('gives up after the bounded retries with a RateLimitError', async () => {
    const limited = { status: 429, body: { detail: 'rate limit exceeded' }, headers: { 'Retry-After': '1' } };
    const { fetch, sent } = scripted([limited, limited, limited]);
    const http = new HttpClient('fixtures-live', {
      baseUrl: 'http://h',
      apiKey: 'k',
      fetch,
      sleep,
      maxRateLimitRetries: 2,
    });
    const error = (await http.get('/sports').catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, serviceMessage: 'rate limit exceeded', retryAfterMs: 1_000 });
    expect(sent).toHaveLength(3);
  });

  it('fails at once when Retry-After asks for more than the longest wait allowed', async () => {
    const { fetch } = scripted([
      { status: 429, body: { error: 'rate limit exceeded' }, headers: { 'Retry-After': '120' } },
    ]);
    const http = new HttpClient('odds-passthrough', { baseUrl: 'http://h', apiKey: 'k', fetch, sleep });
    await expect(http.get('/sports')).rejects.toBeInstanceOf(RateLimitError);
    expect(sleeps).toEqual([]);
  });

  it.each([
    ['fixtures-live', 401, { detail: 'invalid API key' }, AuthError, 'invalid API key'],
    ['fixtures-live', 404, { detail: 'match not found' }, NotFoundError, 'match not found'],
    ['fixtures-live', 422, { detail: 'invalid limit' }, InvalidRequestError, 'invalid limit'],
    [
      'odds-passthrough',
      403,
      { error: 'missing required scope: odds' },
      AuthError,
      'missing required scope: odds',
    ],
    [
      'odds-passthrough',
      400,
      { error: 'invalid parameter: match' },
      InvalidRequestError,
      'invalid parameter: match',
    ],
    ['odds-passthrough', 503, { error: 'auth backend unavailable' }, ApiError, 'auth backend unavailable'],
  ] as const)(
    '%s %i becomes a typed error with the service message',
    async (service, status, body, type, message) => {
      const { fetch } = scripted([{ status, body }]);
      const http = new HttpClient(service, { baseUrl: 'http://h', apiKey: 'k', fetch });
      const error = (await http.get('/x').catch((e: unknown) => e)) as ApiError;
      expect(error).toBeInstanceOf(type);
      expect(error).toMatchObject({ status, serviceMessage: message, service });
      expect(error.message).toContain(message);
    },
  );
});

describe('paginate', () => {
  it('walks offsets by the page limit the server used until has_more is false', async () => {
    const all = Array.from({ length: 5 }, (_, i) => i);
    const asked: number[] = [];
    const items = await collect(
      paginate((offset, limit) => {
        asked.push(offset);
        const clamped = Math.min(limit, 2);
        const page = all.slice(offset, offset + clamped);
        return Promise.resolve({
          items: page,
          total: all.length,
          limit: clamped,
          offset,
          count: page.length,
          page: offset / clamped + 1,
          total_pages: 3,
          has_more: offset + page.length < all.length,
        });
      }, 100),
    );
    expect(items).toEqual(all);
    expect(asked).toEqual([0, 2, 4]);
  });
});
