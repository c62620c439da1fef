import type { HeldMarket, HeldMatch, MatchPass } from './held-book';
import type { ResolvedMarket } from './market-resolution';
import type { Selection } from './selection';
import { nextVersion } from './version';

/**
 * The publication rule of an IngestBook's markets: what clients are told once a
 * dirty market has been resolved again (`resolved`, `locked` at `now`). A
 * market whose key moved withdraws the old key. One that reads as it last did,
 * or as the seed stored for its key, keeps its version and adds nothing to the
 * pass; anything else gets a version greater than any issued for its key, and
 * its selections join the pass.
 */
export function publishResolved(
  held: HeldMatch,
  market: HeldMarket,
  resolved: ResolvedMarket,
  locked: boolean,
  p: MatchPass,
  now: number,
): void {
  const key = resolved.marketKey;
  const previous = market.publishedKey;
  if (previous !== undefined && previous !== key && held.byKey.get(previous) === market) {
    held.byKey.delete(previous);
    p.removedKeys.add(previous);
  }
  market.publishedKey = key;
  held.byKey.set(key, market);
  if (previous === key) {
    if (market.locked === locked && sameSelections(resolved, locked, market.selections)) return;
  } else {
    const seed = held.seeded.get(key);
    if (seed) {
      held.seeded.delete(key);
      if (seed.selections && sameSelections(resolved, locked, storedSelections(seed.selections))) {
        market.locked = locked;
        market.version = seed.version;
        market.selections = toSelections(resolved, locked, seed.version);
        return;
      }
    }
  }
  market.locked = locked;
  market.version = nextVersion(held.versions.get(key), now);
  held.versions.set(key, market.version);
  p.removedKeys.delete(key);
  market.selections = toSelections(resolved, locked, market.version);
  for (const s of market.selections) p.selections.push(s);
}

function storedSelections(stored: readonly Selection[] | string): readonly Selection[] {
  return typeof stored === 'string' ? (JSON.parse(stored) as readonly Selection[]) : stored;
}

/** True when a client would see no difference between `told` and the market resolved and locked so. */
function sameSelections(resolved: ResolvedMarket, locked: boolean, told: readonly Selection[]): boolean {
  if (told.length !== resolved.outcomes.length) return false;
  const status = locked ? 'locked' : 'unlocked';
  for (let i = 0; i < told.length; i++) {
    const s = told[i];
    const o = resolved.outcomes[i];
    if (
      s.market_key !== resolved.marketKey ||
      s.market_name !== resolved.name ||
      s.period !== resolved.period ||
      s.cutoff_at !== resolved.cutoffAt ||
      s.limit !== resolved.limit ||
      s.status !== status ||
      s.bet_name !== o.bet_name ||
      s.line !== o.line ||
      s.price !== o.price
    ) {
      return false;
    }
  }
  return true;
}

function toSelections(resolved: ResolvedMarket, locked: boolean, version: number): Selection[] {
  const status = locked ? 'locked' : 'unlocked';
  const { marketKey: market_key, name: market_name, period, cutoffAt: cutoff_at, limit } = resolved;
  // Two literals in the public key order, not a spread of an optional line: this runs for every
  // selection of every market a poll changes.
  return resolved.outcomes.map(({ bet_name, line, price, decimal }): Selection =>
    line === undefined
      ? { market_key, market_name, period, bet_name, price, decimal, status, version, cutoff_at, limit }
      : {
          market_key,
          market_name,
          period,
          bet_name,
          line,
          price,
          decimal,
          status,
          version,
          cutoff_at,
          limit,
        },
  );
}
