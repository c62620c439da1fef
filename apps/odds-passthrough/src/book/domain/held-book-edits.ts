import type { UpstreamMarket } from '../../upstream';
import {
  type BookPass,
  type HeldMarket,
  type HeldMatch,
  type MatchPass,
  newHeldMarket,
  newMatchPass,
} from './held-book';
import type { HeldMatches } from './held-matches';
import type { MarketCutoffs } from './market-cutoffs';
import { marketKeyOf } from './market-key';
import type { PendingMarkets } from './pending-markets';

/**
 * The edits one pass makes to what an IngestBook holds: markets added,
 * refreshed and withdrawn, matches and sports removed. Each is noted in the
 * pass (a dirty market, a removed key, a removed match) for the pass's
 * commit to resolve and announce. IngestBook decides what a load, a delta
 * or a tick means; these apply it. Part of IngestBook; nothing else holds one.
 */
export class HeldBookEdits {
  constructor(
    private readonly held: HeldMatches,
    private readonly pending: PendingMarkets,
    private readonly cutoffs: MarketCutoffs,
  ) {}

  passOf(pass: BookPass, match: HeldMatch): MatchPass {
    let p = pass.get(match);
    if (!p) {
      p = newMatchPass();
      pass.set(match, p);
    }
    return p;
  }

  markDirty(pass: BookPass, market: HeldMarket): void {
    this.passOf(pass, market.match).dirty.add(market);
  }

  /** A market of a matchup not listed yet waits in PendingMarkets (undefined). */
  upsertMarket(pass: BookPass, sportId: number, wire: UpstreamMarket): HeldMarket | undefined {
    const held = this.held.get(wire.matchup_id);
    if (held?.matchup === undefined) {
      this.pending.hold(sportId, wire);
      return undefined;
    }
    const market = held.markets.get(wire.key);
    if (market) return this.refreshMarket(pass, market, wire);
    const added = newHeldMarket(held, wire);
    held.markets.set(wire.key, added);
    this.markDirty(pass, added);
    return added;
  }

  /** Diff by the book's version: an unchanged version is not resolved again. */
  refreshMarket(pass: BookPass, market: HeldMarket, wire: UpstreamMarket): HeldMarket {
    if (market.bookVersion !== wire.version) {
      market.wire = wire;
      market.bookVersion = wire.version;
      this.markDirty(pass, market);
    }
    return market;
  }

  /** The markets that waited for a matchup now listed. */
  adoptPending(pass: BookPass, sportId: number, held: HeldMatch): void {
    const waiting = this.pending.take(sportId, held.id);
    if (!waiting) return;
    for (const wire of waiting) this.upsertMarket(pass, sportId, wire);
  }

  removeMarket(pass: BookPass, market: HeldMarket): void {
    const held = market.match;
    held.markets.delete(market.bookKey);
    market.removed = true;
    this.cutoffs.forget(market);
    const p = this.passOf(pass, held);
    p.dirty.delete(market);
    const key = market.publishedKey;
    if (key !== undefined && held.byKey.get(key) === market) {
      held.byKey.delete(key);
      p.removedKeys.add(key);
    }
  }

  removeMatch(pass: BookPass, held: HeldMatch): void {
    const p = this.passOf(pass, held);
    for (const market of held.markets.values()) this.removeMarket(pass, market);
    for (const key of held.seeded.keys()) p.removedKeys.add(key);
    held.seeded.clear();
    p.removed = true;
    this.held.remove(held);
  }

  /** The catalog has already forgotten the sport's names; its matches and waiting markets go here. */
  dropSport(pass: BookPass, sportId: number): void {
    for (const held of [...this.held.ofSport(sportId)]) this.removeMatch(pass, held);
    this.held.dropSport(sportId);
    this.pending.dropSport(sportId);
  }

  /** Seeded markets the book no longer lists were withdrawn while this process was down. */
  dropUnlistedSeeds(pass: BookPass, held: HeldMatch): void {
    const listed = new Set<string>();
    for (const market of held.markets.values()) listed.add(marketKeyOf(market.wire));
    const p = this.passOf(pass, held);
    for (const key of [...held.seeded.keys()]) {
      if (listed.has(key)) continue;
      held.seeded.delete(key);
      p.removedKeys.add(key);
    }
  }
}
