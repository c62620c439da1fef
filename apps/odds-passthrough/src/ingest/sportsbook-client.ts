import { withDeadline } from '@app/clock';
import { parseJsonInParts, type ParseResult } from '../upstream';
import { inParts } from '../common/work-in-parts';
import { type UpstreamAnswer, UpstreamHttp } from './upstream-http';

/** The outcome of one upstream request; a fault never throws. */
export type FetchOutcome<T> =
  | { readonly kind: 'ok'; readonly value: T; readonly notModified: boolean }
  | { readonly kind: 'gone' }
  | { readonly kind: 'unavailable'; readonly status: number }
  | { readonly kind: 'fault'; readonly error: string };

interface Cached {
  readonly etag: string;
  readonly value: unknown;
}

/** A 200's body, read before the deadline; parsed after it. */
interface Fetched {
  readonly kind: 'body';
  readonly response: UpstreamAnswer;
  readonly body: unknown;
}

/**
 * HTTP access to one sportsbook. Remembers the ETag and parsed body of each
 * list it read, sends If-None-Match and turns a 304 into the remembered value,
 * so an unchanged list costs neither parsing nor diffing upstream of the state.
 */
export class SportsbookClient {
  private readonly cache = new Map<string, Cached>();
  private readonly http = new UpstreamHttp();
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  async get<T>(path: string, parse: (body: unknown) => ParseResult<T>): Promise<FetchOutcome<T>> {
    return this.request(
      path,
      (bytes) => JSON.parse(this.decoder.decode(bytes)) as unknown,
      (body) => Promise.resolve(parse(body)),
    );
  }

  /**
   * `get` for an answer that can be tens of megabytes (a full market list):
   * its JSON is parsed, and its shape checked, a part at a time, with timers
   * and I/O running in between, so the lease's renewals are not held up.
   * `member` names the big array of the answer.
   */
  async getInParts<T>(
    path: string,
    member: string,
    parse: (body: unknown) => Generator<void, ParseResult<T>, void>,
  ): Promise<FetchOutcome<T>> {
    return this.request(
      path,
      (bytes) => inParts(parseJsonInParts(bytes, member)),
      (body) => inParts(parse(body)),
    );
  }

  private async request<T>(
    path: string,
    read: (bytes: Uint8Array) => unknown,
    parse: (body: unknown) => Promise<ParseResult<T>>,
  ): Promise<FetchOutcome<T>> {
    const cached = this.cache.get(path);
    const fetched = await withDeadline(this.timeoutMs, (signal) =>
      this.fetchBody<T>(path, cached, read, signal),
    );
    if (fetched.kind !== 'body') return fetched;
    const parsed = await parse(fetched.body);
    if (!parsed.ok) return { kind: 'fault', error: `GET ${path}: ${parsed.error}` };
    const etag = fetched.response.etag;
    if (etag) this.cache.set(path, { etag, value: parsed.value });
    else this.cache.delete(path);
    return { kind: 'ok', value: parsed.value, notModified: false };
  }

  /** The answer's body as `read` reads it, or the outcome of an answer that has none to parse. */
  private async fetchBody<T>(
    path: string,
    cached: Cached | undefined,
    read: (bytes: Uint8Array) => unknown,
    signal: AbortSignal,
  ): Promise<FetchOutcome<T> | Fetched> {
    let response: UpstreamAnswer;
    try {
      response = await this.http.get(
        new URL(path, this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`),
        cached
          ? { 'If-None-Match': cached.etag, Accept: 'application/json' }
          : { Accept: 'application/json' },
        signal,
      );
    } catch (error) {
      return { kind: 'fault', error: `GET ${path}: ${describe(error)}` };
    }
    const early = this.earlyOutcome<T>(path, response, cached);
    if (early) return early;
    let bytes: Uint8Array;
    try {
      bytes = await response.read();
    } catch (error) {
      return { kind: 'fault', error: `GET ${path}: ${describe(error)}` };
    }
    try {
      return { kind: 'body', response, body: await read(bytes) };
    } catch (error) {
      return { kind: 'fault', error: `GET ${path}: body is not JSON (${describe(error)})` };
    }
  }

  /** The outcome of an answer whose body is not read (all but a 200), its body discarded. */
  private earlyOutcome<T>(
    path: string,
    response: UpstreamAnswer,
    cached: Cached | undefined,
  ): FetchOutcome<T> | undefined {
    if (response.status === 200) return undefined;
    response.discard();
    if (response.status === 304 && cached) return { kind: 'ok', value: cached.value as T, notModified: true };
    if (response.status === 410) return { kind: 'gone' };
    if (response.status === 503 || response.status === 404)
      return { kind: 'unavailable', status: response.status };
    return { kind: 'fault', error: `GET ${path}: HTTP ${response.status}` };
  }

  /** Forgets remembered bodies, so the next full load reads everything afresh. */
  forget(): void {
    this.cache.clear();
  }

  /** Closes idle connections to the book; a later request opens a new one. */
  close(): void {
    this.http.close();
  }
}

function describe(error: unknown): string {
  // The deadline's reason is a DOMException, which is not an Error in every Node version.
  const named =
    typeof error === 'object' && error !== null ? (error as { name?: unknown; message?: unknown }) : {};
  if (named.name === 'TimeoutError') return 'timed out';
  // A wrapped network error (ECONNREFUSED, ...) keeps its code in its cause.
  const cause = (named as { cause?: { code?: unknown } }).cause;
  if (typeof named.message === 'string') {
    return typeof cause?.code === 'string' ? `${named.message} (${cause.code})` : named.message;
  }
  return String(error);
}
