import type { CricketFormat, UpstreamLiveState, UpstreamMatchStatus } from '../../upstream/livescores.types';
import type { CatalogStatus } from './snapshot.types';

/** Provider statuses whose matches are stored but never shown. */
export type HiddenStatus = 'hidden';

const FROM_PROVIDER: Readonly<Record<UpstreamMatchStatus, CatalogStatus | HiddenStatus>> = {
  scheduled: 'NOT_STARTED',
  in_play: 'STARTED',
  close_of_play: 'CLOSE_OF_PLAY',
  finished: 'FINISHED',
  suspended: 'hidden',
  postponed: 'hidden',
  cancelled: 'hidden',
};

/** Catalog status named by a provider poll; suspended, postponed and cancelled matches are hidden. */
export function catalogStatusFromProvider(status: UpstreamMatchStatus): CatalogStatus | HiddenStatus {
  return FROM_PROVIDER[status];
}

/** Catalog status implied by a live state. */
export function catalogStatusFromLiveState(
  state: UpstreamLiveState,
  catalogFormat: CricketFormat | null,
): CatalogStatus {
  if (state.sport === 'soccer') {
    if (state.status === 'not_started') return 'NOT_STARTED';
    return state.status === 'ft' ? 'FINISHED' : 'STARTED';
  }
  if (state.status === 'ended') return 'FINISHED';
  if (state.status === 'not_started') return 'NOT_STARTED';
  return isFrozenAtStumps(state, catalogFormat) ? 'CLOSE_OF_PLAY' : 'STARTED';
}

/**
 * True for a Test at stumps (the match goes on another day). The ingest sends
 * the first such state once, then sends nothing while states stay frozen.
 */
export function isFrozenAtStumps(state: UpstreamLiveState, catalogFormat: CricketFormat | null): boolean {
  return state.sport === 'cricket' && state.status === 'stumps' && (catalogFormat ?? state.format) === 'test';
}
