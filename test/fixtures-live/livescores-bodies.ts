import type {
  UpstreamCricketState,
  UpstreamSoccerState,
} from '../../apps/fixtures-live/src/upstream/livescores.types';
import {
  cricketState as providerCricketState,
  soccerState as providerSoccerState,
} from '../support/fake-livescores';

// Provider bodies as the provider documents them, for the unit tests of the
// parsers and of the snapshot domain: the fake provider's bodies, raw (plain
// JSON values) and typed as the parsers return them.

export function rawSoccerState(): Record<string, unknown> {
  return providerSoccerState();
}

/** The cricket body with the scorecard the contract's example carries. */
export function rawCricketState(): Record<string, unknown> {
  return providerCricketState({
    scorecard: [{ team: 'England', phase: '1st', score: '412 (120.3)', batting: [], bowling: [] }],
  });
}

export function rawEnvelope(state: unknown = rawSoccerState()): Record<string, unknown> {
  return { stat_id: 'st-77', seq: 18812, sent_at: '2026-11-21T15:23:11Z', state };
}

/** The contract's soccer example, parsed. */
export function soccerState(overrides: Partial<UpstreamSoccerState> = {}): UpstreamSoccerState {
  return { ...(rawSoccerState() as unknown as UpstreamSoccerState), ...overrides };
}

/** The contract's cricket example, parsed. */
export function cricketState(overrides: Partial<UpstreamCricketState> = {}): UpstreamCricketState {
  return { ...(rawCricketState() as unknown as UpstreamCricketState), ...overrides };
}
