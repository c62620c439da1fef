import type { BookDiff } from './book-diff';
import type { BookPass, HeldMatch, MatchPass } from './held-book';

/** Resolves one match of a pass into `diff`; answers how many of its markets it resolved. */
export type CommitMatch = (held: HeldMatch, pass: MatchPass, diff: BookDiff) => number;

/**
 * The resolution of one IngestBook pass, taken in parts of whole matches.
 * A full load of 100,000 markets resolves for about a second of CPU; its
 * caller takes it part by part and lets the event loop run in between (the
 * ingest's lease renewals must not wait behind it). Each part is a complete
 * diff for the matches it covers; the sports and leagues that changed go
 * with the first.
 */
export class BookCommit {
  private readonly entries: IterableIterator<[HeldMatch, MatchPass]>;
  private first = true;
  private finished = false;

  constructor(
    pass: BookPass,
    private readonly sportsChanged: boolean,
    private readonly takeLeaguesChanged: () => number[],
    private readonly commitMatch: CommitMatch,
  ) {
    this.entries = pass.entries();
  }

  /** True once every match of the pass has been resolved. */
  get done(): boolean {
    return this.finished;
  }

  /** The next part: whole matches until at least `marketBudget` markets were resolved. */
  next(marketBudget = Number.POSITIVE_INFINITY): BookDiff {
    const diff: BookDiff = {
      changes: [],
      matches: [],
      removedMatches: [],
      sportsChanged: this.first && this.sportsChanged,
      leaguesChanged: this.first ? this.takeLeaguesChanged() : [],
    };
    this.first = false;
    let resolved = 0;
    while (resolved < marketBudget) {
      const entry = this.entries.next();
      if (entry.done) {
        this.finished = true;
        break;
      }
      resolved += Math.max(1, this.commitMatch(entry.value[0], entry.value[1], diff));
    }
    return diff;
  }
}
