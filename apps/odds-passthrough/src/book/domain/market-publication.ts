import type { HeldMarket, HeldMatch, MatchPass } from './held-book';
import { type ResolvedMarket, sameResolved } from './market-resolution';
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
  const previous = market.published;
  if (previous && previous.marketKey !== key && held.byKey.get(previous.marketKey) === market) {
    held.byKey.delete(previous.marketKey);
    p.removedKeys.add(previous.marketKey);
  }
  let unchanged = false;
  if (previous && previous.marketKey === key) {
    unchanged = market.locked === locked && sameResolved(previous, resolved);
  } else {
    const seed = held.seeded.get(key);
    if (seed) {
      held.seeded.delete(key);
      if (seed.selections && sameAsSeed(resolved, locked, seed.selections)) {
        unchanged = true;
        market.version = seed.version;
      }
    }
  }
  market.published = resolved;
  market.locked = locked;
  held.byKey.set(key, market);
  if (unchanged) return;
  market.version = nextVersion(held.versions.get(key), now);
  held.versions.set(key, market.version);
  p.removedKeys.delete(key);
  for (const s of toSelections(resolved, locked, market.version)) p.selections.push(s);
}

/**
 * The selections a published market was last announced with. Built on
 * demand: the ingest keeps one resolution per market, not its selections too.
 */
export function selectionsOf(market: HeldMarket): Selection[] {
  return market.published ? toSelections(market.published, market.locked, market.version) : [];
}

function sameAsSeed(
  resolved: ResolvedMarket,
  locked: boolean,
  stored: readonly Selection[] | string,
): boolean {
  const seed = typeof stored === 'string' ? (JSON.parse(stored) as readonly Selection[]) : stored;
  if (seed.length !== resolved.outcomes.length) return false;
  const status = locked ? 'locked' : 'unlocked';
  for (let i = 0; i < seed.length; i++) {
    const s = seed[i];
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
  return resolved.outcomes.map((o) => ({
    market_key: resolved.marketKey,
    market_name: resolved.name,
    period: resolved.period,
    bet_name: o.bet_name,
    ...(o.line === undefined ? {} : { line: o.line }),
    price: o.price,
    decimal: o.decimal,
    status,
    version,
    cutoff_at: resolved.cutoffAt,
    limit: resolved.limit,
  }));
}
