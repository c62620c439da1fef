import type { UpstreamLeague, UpstreamPeriodLabel, UpstreamSport } from '../../upstream';
import type { BookLeague, BookSport } from './book-diff';
import type { PeriodLabels } from './market-naming';

/**
 * The names an IngestBook publishes with, as the sportsbook last listed them:
 * the sports, each sport's leagues and each sport's period labels. It also
 * remembers which sports' league lists changed until the book's next commit
 * takes them. Part of IngestBook; nothing else holds one.
 */
export class IngestCatalog {
  private readonly sportNames = new Map<number, string>();
  private readonly labels = new Map<number, Map<number, string>>();
  private readonly leagueNames = new Map<number, Map<number, string>>();
  private readonly leaguesChanged = new Set<number>();

  sports(): BookSport[] {
    return [...this.sportNames].map(([id, name]) => ({ id, name })).sort((a, b) => a.id - b.id);
  }

  leagues(sportId?: number): BookLeague[] {
    const out: BookLeague[] = [];
    for (const [sport, names] of this.leagueNames) {
      if (sportId !== undefined && sport !== sportId) continue;
      for (const [id, name] of names) out.push({ id, name, sport_id: sport });
    }
    return out.sort((a, b) => a.id - b.id);
  }

  hasLabels(sportId: number): boolean {
    return this.labels.has(sportId);
  }

  labelsOf(sportId: number): PeriodLabels | undefined {
    return this.labels.get(sportId);
  }

  leagueName(sportId: number, leagueId: number): string | undefined {
    return this.leagueNames.get(sportId)?.get(leagueId);
  }

  /**
   * Takes the full sports list. Returns whether it differs from the one held
   * and the sports it no longer names, whose leagues and labels go with them.
   */
  replaceSports(sports: readonly UpstreamSport[]): { changed: boolean; dropped: number[] } {
    const listed = new Map(sports.map((s) => [s.id, s.name]));
    let changed = listed.size !== this.sportNames.size;
    for (const [id, name] of listed) if (this.sportNames.get(id) !== name) changed = true;
    const dropped: number[] = [];
    for (const id of this.sportNames.keys()) {
      if (listed.has(id)) continue;
      dropped.push(id);
      this.labels.delete(id);
      if (this.leagueNames.delete(id)) this.leaguesChanged.add(id);
    }
    this.sportNames.clear();
    for (const [id, name] of listed) this.sportNames.set(id, name);
    return { changed, dropped };
  }

  /**
   * Takes a sport's period label table; true when it was new or different.
   * An empty table means the book is still cold: it is ignored.
   */
  replaceLabels(sportId: number, labels: readonly UpstreamPeriodLabel[]): boolean {
    if (labels.length === 0) return false;
    const table = new Map(labels.map((l) => [l.number, l.description]));
    const held = this.labels.get(sportId);
    const same =
      held !== undefined && held.size === table.size && [...table].every(([n, d]) => held.get(n) === d);
    if (same) return false;
    this.labels.set(sportId, table);
    return true;
  }

  /** Takes a sport's league list; returns the ids of the leagues that appeared, went or were renamed. */
  replaceLeagues(sportId: number, leagues: readonly UpstreamLeague[]): Set<number> {
    const before = this.leagueNames.get(sportId);
    const after = new Map(leagues.map((l) => [l.id, l.name]));
    const changed = new Set<number>();
    for (const [id, name] of after) if (before?.get(id) !== name) changed.add(id);
    if (before) for (const id of before.keys()) if (!after.has(id)) changed.add(id);
    this.leagueNames.set(sportId, after);
    if (changed.size > 0) this.leaguesChanged.add(sportId);
    return changed;
  }

  /** The sports whose league list changed since the last call. */
  takeLeaguesChanged(): number[] {
    const changed = [...this.leaguesChanged];
    this.leaguesChanged.clear();
    return changed;
  }
}
