import type { PreparedJson } from '@app/http-edge';

/** What a replayed answer repeats of the one the full pipeline gave. */
export interface RecordedAnswer {
  readonly json: PreparedJson;
  readonly contentType: string;
  /** Express's matched route, so request metrics label the replay as the route it stands for. */
  readonly route: unknown;
}

/** How much an AnswerReplay holds at most; past either bound the least recently recorded targets go. */
export interface AnswerReplayBounds {
  readonly maxUrls?: number;
  /**
   * Bytes of the answers held, each recording counted once even where it
   * shares its bytes; unbounded by default, for answers another cache holds anyway.
   */
  readonly maxBytes?: number;
}

/** Principals kept per URL: a few keys polling the same page do not evict each other. */
const PRINCIPALS_PER_URL = 8;

const DEFAULT_MAX_URLS = 5000;

interface Recording {
  readonly principal: object;
  readonly answer: RecordedAnswer;
}

/**
 * The last answers given, by request target and by the principal (the key
 * registry's object for one key's decision, replaced whenever that key or its
 * account changes) they were given to. Pure: whether an answer is still
 * current is the caller's question (`AnswerFreshness`).
 * Bounded in targets and in bytes: the targets recorded least recently go first.
 */
export class AnswerReplay {
  /** In the order targets were last recorded, oldest first. */
  private readonly byUrl = new Map<string, Recording[]>();
  private readonly maxUrls: number;
  private readonly maxBytes: number;
  private held = 0;

  constructor(bounds: AnswerReplayBounds = {}) {
    this.maxUrls = bounds.maxUrls ?? DEFAULT_MAX_URLS;
    this.maxBytes = bounds.maxBytes ?? Infinity;
  }

  remember(url: string, principal: object, answer: RecordedAnswer): void {
    const entries = this.byUrl.get(url) ?? [];
    this.byUrl.delete(url);
    const index = entries.findIndex((entry) => entry.principal === principal);
    if (index >= 0) this.held -= weight(entries.splice(index, 1)[0]);
    const recording = { principal, answer };
    if (weight(recording) > this.maxBytes) {
      // Too big to hold at all; the principal's older answer for the target went above.
      if (entries.length > 0) this.byUrl.set(url, entries);
      return;
    }
    if (entries.length >= PRINCIPALS_PER_URL) this.held -= weight(entries.shift() as Recording);
    entries.push(recording);
    this.held += weight(recording);
    this.byUrl.set(url, entries);
    this.evictBefore(url);
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

  /** Bytes of the answers held. */
  get bytes(): number {
    return this.held;
  }

  /**
   * Drops the oldest targets until both bounds hold; of `newest`, just
   * recorded, only other principals' older answers may go.
   */
  private evictBefore(newest: string): void {
    for (const [url, entries] of this.byUrl) {
      if (this.byUrl.size <= this.maxUrls && this.held <= this.maxBytes) return;
      if (url === newest) {
        while (this.held > this.maxBytes) this.held -= weight(entries.shift() as Recording);
        return;
      }
      this.byUrl.delete(url);
      for (const entry of entries) this.held -= weight(entry);
    }
  }
}

function weight(recording: Recording): number {
  return recording.answer.json.bytes.length;
}
