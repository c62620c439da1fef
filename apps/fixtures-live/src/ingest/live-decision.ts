import {
  buildSnapshot,
  type CatalogStatus,
  catalogStatusFromLiveState,
  type HeldResults,
  type LiveSnapshot,
  type ResultFreezes,
  resultFreezes,
  sameLiveState,
} from '../live/domain';
import type { KnownMatch } from './match-registry';
import type { UpstreamLiveState } from '../upstream/livescores.types';

/** What the ingest remembers of one match between states. */
export interface MatchMemory {
  lastState: UpstreamLiveState | null;
  /** Catalog status implied by the last applied live state. */
  liveStatus: CatalogStatus | null;
  held: HeldResults;
}

export type LiveDecision =
  | { readonly kind: 'skip'; readonly reason: 'unchanged' | 'frozen' }
  | {
      readonly kind: 'apply';
      readonly snapshot: LiveSnapshot;
      readonly liveStatus: CatalogStatus;
      /** Set when the live state moved the catalog status. */
      readonly statusChanged: boolean;
      readonly freezes: ResultFreezes;
    };

/**
 * What one new upstream state means for a match: nothing (unchanged, or a
 * Test still frozen at stumps), or a new public snapshot, possibly moving the
 * catalog status and freezing results. The stumps state itself is applied
 * once; later states that keep the Test at stumps are not.
 */
export function decideLiveUpdate(
  memory: MatchMemory,
  state: UpstreamLiveState,
  match: KnownMatch,
  producedAt: Date,
): LiveDecision {
  if (memory.lastState && sameLiveState(memory.lastState, state))
    return { kind: 'skip', reason: 'unchanged' };
  const liveStatus = catalogStatusFromLiveState(state, match.format);
  if (memory.liveStatus === 'CLOSE_OF_PLAY' && liveStatus === 'CLOSE_OF_PLAY') {
    return { kind: 'skip', reason: 'frozen' };
  }
  const snapshot = buildSnapshot(state, {
    homeName: match.homeTeam,
    awayName: match.awayTeam,
    leagueName: match.leagueName,
    provider: { stat_id: match.statId, live_id: match.liveId, fixture_id: match.providerId },
    catalogFormat: match.format,
    producedAt,
  });
  return {
    kind: 'apply',
    snapshot,
    liveStatus,
    statusChanged: liveStatus !== memory.liveStatus,
    freezes: resultFreezes(snapshot, match.format, memory.held),
  };
}

/** The memory after applying a decision. */
export function remember(memory: MatchMemory, state: UpstreamLiveState, decision: LiveDecision): MatchMemory {
  if (decision.kind === 'skip') return memory;
  return {
    lastState: state,
    liveStatus: decision.liveStatus,
    held: {
      halfTime: memory.held.halfTime || decision.freezes.halfTime !== undefined,
      fullTime: memory.held.fullTime || decision.freezes.fullTime !== undefined,
    },
  };
}
