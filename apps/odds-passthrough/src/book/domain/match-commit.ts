import type { UpstreamMatchup } from '../../upstream';
import type { BookDiff } from './book-diff';
import type { HeldMarket, HeldMatch, MatchPass } from './held-book';
import type { IngestCatalog } from './ingest-catalog';
import type { MarketCutoffs } from './market-cutoffs';
import { publishResolved } from './market-publication';
import { resolveMarket } from './market-resolution';
import type { BookChange } from './match-odds';
import { matchFields, publicMatch, sameMatchFields, type PublicMatchFields } from './public-match';
import type { Selection } from './selection';
import { StringPool } from './string-pool';
import { nextVersion } from './version';

/**
 * Ingest side, part of IngestBook: the commit of one match of a pass. IngestBook decides what a
 * poll made dirty; this resolves those markets again with the catalog's names, issues the
 * versions of what clients will see differently (`publishResolved`), keeps the cutoff queue in
 * step, and writes the match's change, its listing and its withdrawal into the pass's diff.
 */
export class MatchCommit {
  private readonly strings = new StringPool();
  private readonly share = (text: string): string => this.strings.share(text);

  constructor(
    private readonly book: string,
    private readonly catalog: IngestCatalog,
    private readonly cutoffs: MarketCutoffs,
  ) {}

  /** Resolves one match of a pass into `diff`; answers how many of its markets it resolved. */
  commit(held: HeldMatch, p: MatchPass, diff: BookDiff, now: number): number {
    if (p.removed) {
      if (p.added) return 0;
      held.ts = Math.max(held.ts, now);
      diff.removedMatches.push({ id: held.id, sportId: held.sportId });
      diff.changes.push(this.changeOf(held, p, []));
      return 0;
    }
    const matchup = held.matchup;
    if (matchup === undefined) return 0;
    if (p.fieldsDirty || p.added) this.publishMatch(held, matchup, diff, now);
    for (const market of p.dirty) this.publishMarket(held, market, matchup, p, now);
    if (p.added || p.selections.length > 0 || p.removedKeys.size > 0) {
      held.ts = Math.max(held.ts, now);
      diff.changes.push(this.changeOf(held, p, p.selections));
    }
    return p.dirty.size;
  }

  private changeOf(held: HeldMatch, p: MatchPass, selections: Selection[]): BookChange {
    return {
      book: this.book,
      matchId: held.id,
      sportId: held.sportId,
      ts: held.ts,
      selections,
      removedMarketKeys: [...p.removedKeys],
      matchRemoved: p.removed,
      matchAdded: p.added,
    };
  }

  private publishMatch(held: HeldMatch, matchup: UpstreamMatchup, diff: BookDiff, now: number): void {
    const fields: PublicMatchFields = matchFields(
      held.sportId,
      matchup,
      this.catalog.leagueName(held.sportId, matchup.league_id),
    );
    if (held.published && !held.reannounce && sameMatchFields(held.published, fields)) return;
    held.reannounce = false;
    held.published = publicMatch(fields, nextVersion(held.published?.version, now));
    diff.matches.push(held.published);
  }

  private publishMarket(
    held: HeldMatch,
    market: HeldMarket,
    matchup: UpstreamMatchup,
    p: MatchPass,
    now: number,
  ): void {
    const resolved = resolveMarket(matchup, market.wire, this.catalog.labelsOf(held.sportId), this.share);
    const locked = !resolved.open || now >= resolved.cutoffMs;
    publishResolved(held, market, resolved, locked, p, now);
    this.cutoffs.waitFor(market, locked ? undefined : resolved.cutoffMs);
  }
}
