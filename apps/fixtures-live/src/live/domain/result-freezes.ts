import type { CricketFormat } from '../../upstream/livescores.types';
import type { CricketSnapshot, LiveSnapshot, SoccerSnapshot } from './snapshot.types';

/** Which result snapshots are already stored for the match. */
export interface HeldResults {
  readonly halfTime: boolean;
  readonly fullTime: boolean;
}

/** A frozen result snapshot; a soccer half time has no `events`. */
export type ResultSnapshot = LiveSnapshot | Omit<SoccerSnapshot, 'events'>;

export interface ResultFreezes {
  halfTime?: ResultSnapshot;
  fullTime?: LiveSnapshot;
}

/**
 * Result snapshots this snapshot freezes, only those not held yet, so each is
 * recorded exactly once. Soccer: half time at `ht` (without `events`), full
 * time at `ft`. Cricket: half time at the first innings break of a
 * limited-overs match (a Test has none), full time at `ended`.
 */
export function resultFreezes(
  snapshot: LiveSnapshot,
  catalogFormat: CricketFormat | null,
  held: HeldResults,
): ResultFreezes {
  return snapshot.sport === 'soccer'
    ? soccerFreezes(snapshot, held)
    : cricketFreezes(snapshot, catalogFormat, held);
}

function soccerFreezes(snapshot: SoccerSnapshot, held: HeldResults): ResultFreezes {
  if (snapshot.status === 'ht' && !held.halfTime) {
    const { events: _events, ...withoutEvents } = snapshot;
    return { halfTime: withoutEvents };
  }
  if (snapshot.status === 'ft' && !held.fullTime) return { fullTime: snapshot };
  return {};
}

function cricketFreezes(
  snapshot: CricketSnapshot,
  catalogFormat: CricketFormat | null,
  held: HeldResults,
): ResultFreezes {
  const isTest = (catalogFormat ?? snapshot.match_type) === 'test';
  if (snapshot.status === 'innings_break' && !isTest && !held.halfTime) {
    return { halfTime: snapshot };
  }
  if (snapshot.status === 'ended' && !held.fullTime) return { fullTime: snapshot };
  return {};
}
