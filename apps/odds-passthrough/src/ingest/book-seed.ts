import type { Logger } from '@nestjs/common';
import { retryUntilDone } from '@app/clock';
import type { BookRepository, StoredSeed } from '../book/book.repository';
import { IngestBook, type SeedMatch } from '../book/domain';
import { inParts, type Parts } from '../common/work-in-parts';
import { describeError } from './describe-error';

export interface SeedOptions {
  /** Told each stored match's change-log position, so its next frame names it as `prev_seq`. */
  readonly recall: (matchId: number, seq: number) => void;
  /** Once true, reading gives up and the book starts empty. */
  readonly stopped: () => boolean;
  /** The wait between attempts; a stop should cut it short. */
  readonly wait: (ms: number) => Promise<void>;
}

/**
 * Where one book's ingest starts from: its IngestBook seeded with the stored
 * matches, markets, versions and selections, so a restarted ingest keeps
 * every market_key's version growing and does not announce again what has
 * not changed. A match whose newest stored change never went out (the last
 * holder stopped in between) is seeded as unpublished, with its removals
 * still to announce, so the first load tells it all again. Reading retries
 * until PostgreSQL answers.
 */
export class BookSeed {
  constructor(
    private readonly book: string,
    private readonly repository: BookRepository,
    private readonly logger: Logger,
  ) {}

  async load(options: SeedOptions): Promise<IngestBook> {
    const seeded = await retryUntilDone(() => this.read(options.recall), {
      stopped: options.stopped,
      onFailure: (error, wait) =>
        this.logger.warn(`Reading the stored book failed (${describeError(error)}); retrying in ${wait} ms`),
      wait: options.wait,
    });
    return seeded ?? new IngestBook(this.book);
  }

  private async read(recall: SeedOptions['recall']): Promise<IngestBook> {
    const stored = await this.repository.loadSeed(this.book);
    return inParts(seededBook(this.book, stored, recall));
  }
}

/** Matches (with their markets) seeded per part, and markets grouped per part: a few milliseconds each. */
const MATCHES_PER_PART = 100;
const MARKETS_PER_PART = 5000;

/** The IngestBook that `stored` describes, built a part at a time. */
export function* seededBook(
  book: string,
  stored: StoredSeed,
  recall: SeedOptions['recall'],
): Parts<IngestBook> {
  const unpublished = new Set<number>();
  for (const { info, unpublished: untold, removed } of stored.matches)
    if (untold || removed) unpublished.add(info.id);
  const markets = new Map<number, SeedMatch['markets'][number][]>();
  let inPart = 0;
  for (const market of stored.markets) {
    if (++inPart === MARKETS_PER_PART) {
      inPart = 0;
      yield;
    }
    const list = markets.get(market.matchId) ?? [];
    // Without selections (a tombstone's `[]`), a market is announced again (with a greater
    // version) however it reads.
    const told = market.selectionsText !== '[]' && !unpublished.has(market.matchId);
    list.push({
      marketKey: market.marketKey,
      version: market.version,
      selections: told ? market.selectionsText : undefined,
    });
    markets.set(market.matchId, list);
  }
  const seeded = new IngestBook(book);
  for (let start = 0; start < stored.matches.length; start += MATCHES_PER_PART) {
    yield;
    const part = stored.matches.slice(start, start + MATCHES_PER_PART).map(({ info, ts, position }) => {
      if (position) recall(info.id, position.seq);
      return { match: info, ts, markets: markets.get(info.id) ?? [], unpublished: unpublished.has(info.id) };
    });
    seeded.seed(part);
  }
  return seeded;
}
