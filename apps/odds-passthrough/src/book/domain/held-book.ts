import type { UpstreamMarket, UpstreamMatchup } from '../../upstream';
import type { SeedMarket } from './book-diff';
import type { PublicMatch } from './public-match';
import type { Selection } from './selection';

/*
 * The ingest book's own records of what it holds (IngestBook's internals,
 * shared with nothing else). Held objects are created only by the factories
 * below, with every field present, so all of them share one hidden class and
 * the hot loops over 100,000 markets stay monomorphic.
 */
export interface HeldMarket {
  readonly bookKey: string;
  readonly match: HeldMatch;
  wire: UpstreamMarket;
  /** `wire.version`, kept here so the no-change path does not touch the old wire object. */
  bookVersion: number;
  /** The market_key clients were last told of; undefined until first published. */
  publishedKey: string | undefined;
  /**
   * The selections clients were last told, as the frame carried them. A ROLE=all
   * process's replica keeps these same objects, so the market's state is held once.
   */
  selections: readonly Selection[];
  locked: boolean;
  /** The version of what clients were last told. */
  version: number;
  seenGen: number;
  /** Set once withdrawn, so a stale entry of `HeldMatch.listed` is never matched. */
  removed: boolean;
  /** The cutoff this market waits for in the queue, while it is unlocked. */
  queuedAt: number | undefined;
}

export interface HeldMatch {
  readonly id: number;
  sportId: number;
  /** Undefined for a match only known from the seed, until the book lists it again. */
  matchup: UpstreamMatchup | undefined;
  published: PublicMatch | undefined;
  /** Seeded from a store that may not have told clients `published`: announce it even if unchanged. */
  reannounce: boolean;
  ts: number;
  /** By the book's own key. */
  readonly markets: Map<string, HeldMarket>;
  /** Published markets by market_key. */
  readonly byKey: Map<string, HeldMarket>;
  /** Last version issued per market_key, withdrawn keys included, so a key never goes back. */
  readonly versions: Map<string, number>;
  /** Seeded markets not yet seen again since the restart. */
  readonly seeded: Map<string, SeedMarket>;
  seenGen: number;
  /**
   * Markets in the order of the last full listing. The book lists in a stable order, so the
   * next full poll is matched by position, and the keyed map is only asked on a miss.
   */
  listed: HeldMarket[];
  /**
   * While a full poll reads this match: the next position of `listed` to compare, and where
   * the new order is written. The new order is written in place, behind the read position.
   */
  listingGen: number;
  readAt: number;
  writeAt: number;
}

export interface MatchPass {
  added: boolean;
  removed: boolean;
  fieldsDirty: boolean;
  readonly dirty: Set<HeldMarket>;
  readonly removedKeys: Set<string>;
  readonly selections: Selection[];
}

/** What one call to the ingest book touched, match by match, until its commit. */
export type BookPass = Map<HeldMatch, MatchPass>;

export function newHeldMatch(id: number, sportId: number): HeldMatch {
  return {
    id,
    sportId,
    matchup: undefined,
    published: undefined,
    reannounce: false,
    ts: 0,
    markets: new Map(),
    byKey: new Map(),
    versions: new Map(),
    seeded: new Map(),
    seenGen: 0,
    listed: [],
    listingGen: 0,
    readAt: 0,
    writeAt: 0,
  };
}

const NO_SELECTIONS: readonly Selection[] = Object.freeze([]);

/** A market first listed for `match`: locked and unpublished until its first commit resolves it. */
export function newHeldMarket(match: HeldMatch, wire: UpstreamMarket): HeldMarket {
  return {
    bookKey: wire.key,
    match,
    wire,
    bookVersion: wire.version,
    locked: true,
    version: 0,
    seenGen: 0,
    removed: false,
    publishedKey: undefined,
    selections: NO_SELECTIONS,
    queuedAt: undefined,
  };
}

export function newMatchPass(): MatchPass {
  return {
    added: false,
    removed: false,
    fieldsDirty: false,
    dirty: new Set(),
    removedKeys: new Set(),
    selections: [],
  };
}

/** Field by field, without allocating: a re-listing of thousands of matchups is mostly unchanged. */
export function sameMatchup(a: UpstreamMatchup, b: UpstreamMatchup): boolean {
  if (
    a.version !== b.version ||
    a.league_id !== b.league_id ||
    a.type !== b.type ||
    a.parent_id !== b.parent_id ||
    a.is_live !== b.is_live ||
    a.start_time !== b.start_time ||
    a.special?.description !== b.special?.description ||
    a.participants.length !== b.participants.length ||
    a.periods.length !== b.periods.length
  ) {
    return false;
  }
  for (let i = 0; i < a.participants.length; i++) {
    const x = a.participants[i];
    const y = b.participants[i];
    if (x.id !== y.id || x.alignment !== y.alignment || x.name !== y.name) return false;
  }
  for (let i = 0; i < a.periods.length; i++) {
    const x = a.periods[i];
    const y = b.periods[i];
    if (x.number !== y.number || x.status !== y.status || x.cutoff_at !== y.cutoff_at) return false;
  }
  return true;
}
