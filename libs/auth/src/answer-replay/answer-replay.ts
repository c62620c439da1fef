import type { PreparedJson } from '@app/http-edge';

/** What a replayed answer repeats of the one the full pipeline gave. */
export interface RecordedAnswer {
  readonly json: PreparedJson;
  readonly contentType: string;
  /** Express's matched route, so request metrics label the replay as the route it stands for. */
  readonly route: unknown;
}

/** Principals kept per URL: a few keys polling the same page do not evict each other. */
const PRINCIPALS_PER_URL = 8;

/**
 * The last answers given, by request target and by the principal (the key
 * registry's object for one key's decision, replaced whenever that key or its
 * account changes) they were given to. Pure: whether an answer is still
 * current is the caller's question (`AnswerFreshness`).
 * Bounded: it starts afresh past `maxUrls` targets.
 */
export class AnswerReplay {
  private readonly byUrl = new Map<string, Array<{ principal: object; answer: RecordedAnswer }>>();

  constructor(private readonly maxUrls = 5000) {}

  remember(url: string, principal: object, answer: RecordedAnswer): void {
    let entries = this.byUrl.get(url);
    if (entries === undefined) {
      if (this.byUrl.size >= this.maxUrls) this.byUrl.clear();
      entries = [];
      this.byUrl.set(url, entries);
    }
    const index = entries.findIndex((entry) => entry.principal === principal);
    if (index >= 0) entries.splice(index, 1);
    else if (entries.length >= PRINCIPALS_PER_URL) entries.shift();
    entries.push({ principal, answer });
  }

  /** Whether anything was recorded for `url`, before the key is looked up at all. */
  knows(url: string): boolean {
    return this.byUrl.has(url);
  }

  find(url: string, principal: object): RecordedAnswer | undefined {
    return this.byUrl.get(url)?.find((entry) => entry.principal === principal)?.answer;
  }

  get size(): number {
    return this.byUrl.size;
  }
}
