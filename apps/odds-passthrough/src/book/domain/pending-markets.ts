import type { UpstreamMarket } from '../../upstream';

/**
 * Markets the sportsbook listed for matchups an IngestBook does not know yet,
 * by sport, then matchup, then the book's own market key. They wait here
 * until their matchup is listed, a withdrawal names them or their sport is
 * loaded again in full. Part of IngestBook; nothing else holds one.
 */
export class PendingMarkets {
  private readonly bySport = new Map<number, Map<number, Map<string, UpstreamMarket>>>();

  /** Keeps the newest listing of a market under its book key. */
  hold(sportId: number, wire: UpstreamMarket): void {
    let byMatchup = this.bySport.get(sportId);
    if (!byMatchup) {
      byMatchup = new Map();
      this.bySport.set(sportId, byMatchup);
    }
    let byKey = byMatchup.get(wire.matchup_id);
    if (!byKey) {
      byKey = new Map();
      byMatchup.set(wire.matchup_id, byKey);
    }
    byKey.set(wire.key, wire);
  }

  /** Removes and returns the markets waiting for a matchup, if any. */
  take(sportId: number, matchupId: number): Iterable<UpstreamMarket> | undefined {
    const waiting = this.bySport.get(sportId)?.get(matchupId);
    if (!waiting) return undefined;
    this.bySport.get(sportId)?.delete(matchupId);
    return waiting.values();
  }

  withdraw(sportId: number, matchupId: number, key: string): void {
    this.bySport.get(sportId)?.get(matchupId)?.delete(key);
  }

  dropSport(sportId: number): void {
    this.bySport.delete(sportId);
  }
}
