import { apiError, type ServiceName } from './errors';
import { EtagCache } from './etag-cache';
import { retryAfterMs } from './retry-after';

export type FetchLike = (
  url: string,
  init: { headers: Record<string, string>; signal?: AbortSignal },
) => Promise<{
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}>;

export interface HttpOptions {
  /** e.g. `http://localhost:3000/v1` (fixtures-live) or `http://localhost:3001/v1/book` (odds). */
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Retries of a 429 before RateLimitError is thrown. Default 3. */
  readonly maxRateLimitRetries?: number;
  /** Longest single wait a `Retry-After` may impose; a longer one fails at once. Default 30 s. */
  readonly maxRetryAfterMs?: number;
  /**
   * Cache of the last ETag and body per URL: GETs send `If-None-Match` and a
   * 304 answers with the cached body. `false` turns it off. Default: a cache
   * of 500 URLs per client.
   */
  readonly etagCache?: EtagCache | false;
  /** Defaults to the global fetch (Node 18+, browsers). */
  readonly fetch?: FetchLike;
  /** Defaults to a timer; tests replace it. */
  readonly sleep?: (ms: number) => Promise<void>;
}

export type Query = Record<string, string | number | boolean | undefined>;

/** A GET with the key, conditional requests, 429 handling and typed errors. */
export class HttpClient {
  private readonly base: string;
  private readonly cache: EtagCache | undefined;
  private readonly fetchImpl: FetchLike;
  private readonly sleep: (ms: number) => Promise<void>;
  /** Requests answered 304 from the cache, and 429s waited out, so far. */
  readonly counters = { notModified: 0, rateLimited: 0 };

  constructor(
    private readonly service: ServiceName,
    private readonly options: HttpOptions,
  ) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.cache = options.etagCache === false ? undefined : (options.etagCache ?? new EtagCache());
    this.fetchImpl = options.fetch ?? ((url, init) => fetch(url, init));
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  url(path: string, query: Query = {}): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) params.append(name, String(value));
    }
    const search = params.toString();
    return `${this.base}${path}${search ? `?${search}` : ''}`;
  }

  async get<T>(path: string, query: Query = {}, signal?: AbortSignal): Promise<T> {
    const url = this.url(path, query);
    const maxRetries = this.options.maxRateLimitRetries ?? 3;
    const maxWait = this.options.maxRetryAfterMs ?? 30_000;
    for (let attempt = 0; ; attempt++) {
      const cached = this.cache?.get<T>(url);
      const headers: Record<string, string> = {
        'X-API-Key': this.options.apiKey,
        Accept: 'application/json',
      };
      if (cached) headers['If-None-Match'] = cached.etag;
      const response = await this.fetchImpl(url, { headers, signal });

      if (response.status === 304 && cached) {
        this.counters.notModified += 1;
        return cached.body;
      }
      const text = await response.text();
      const body = parseJson(text);
      if (response.status >= 200 && response.status < 300) {
        const etag = response.headers.get('etag');
        if (this.cache && etag) this.cache.set(url, etag, body);
        return body as T;
      }
      const wait = retryAfterMs(response.headers.get('retry-after'));
      if (response.status === 429 && attempt < maxRetries && (wait ?? 0) <= maxWait) {
        this.counters.rateLimited += 1;
        // Without a Retry-After, a second; the spec's minimum.
        await this.sleep(wait ?? 1_000);
        continue;
      }
      throw apiError(this.service, response.status, this.messageOf(body, response), url, body, wait);
    }
  }

  private messageOf(body: unknown, response: { status: number; statusText: string }): string {
    const field = this.service === 'fixtures-live' ? 'detail' : 'error';
    if (body && typeof body === 'object' && field in body) {
      const value = (body as Record<string, unknown>)[field];
      if (typeof value === 'string') return value;
      // Validation errors may carry a list; keep it readable.
      return JSON.stringify(value);
    }
    return response.statusText || `HTTP ${response.status}`;
  }
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
