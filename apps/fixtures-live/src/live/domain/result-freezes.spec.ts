import { cricketState, soccerState } from '../../../../../test/fixtures-live/livescores-bodies';
import type { UpstreamCricketState, UpstreamSoccerState } from '../../upstream/livescores.types';
import { buildSnapshot, type SnapshotContext } from './build-snapshot';
import { resultFreezes } from './result-freezes';

const ctx: SnapshotContext = {
  homeName: 'Arsenal',
  awayName: 'Chelsea',
  leagueName: 'EPL',
  provider: { stat_id: 'st-77' },
  catalogFormat: null,
  producedAt: new Date('2026-11-21T15:47:00Z'),
};
const NONE_HELD = { halfTime: false, fullTime: false };

const soccer = (overrides: Partial<UpstreamSoccerState>) => buildSnapshot(soccerState(overrides), ctx);
const cricket = (overrides: Partial<UpstreamCricketState>) => buildSnapshot(cricketState(overrides), ctx);

describe('resultFreezes: soccer', () => {
  it('freezes half time at ht, without events', () => {
    const snapshot = soccer({ status: 'ht' });
    const { halfTime, fullTime } = resultFreezes(snapshot, null, NONE_HELD);
    expect(fullTime).toBeUndefined();
    const { events: _events, ...expected } = snapshot;
    expect(halfTime).toEqual(expected);
    expect(halfTime && 'events' in halfTime).toBe(false);
    expect(snapshot.events).not.toBeNull();
  });

  it('freezes full time at ft, with the complete events', () => {
    const snapshot = soccer({ status: 'ft' });
    const freezes = resultFreezes(snapshot, null, NONE_HELD);
    expect(freezes).toEqual({ fullTime: snapshot });
    expect(freezes.fullTime && 'events' in freezes.fullTime && freezes.fullTime.events).toHaveLength(1);
  });

  it('freezes each only once', () => {
    expect(resultFreezes(soccer({ status: 'ht' }), null, { halfTime: true, fullTime: false })).toEqual({});
    expect(resultFreezes(soccer({ status: 'ft' }), null, { halfTime: true, fullTime: true })).toEqual({});
  });

  it('freezes full time even when half time was never captured', () => {
    expect(resultFreezes(soccer({ status: 'ft' }), null, NONE_HELD).fullTime).toBeDefined();
  });

  it.each(['not_started', '1h', '2h', 'et', 'pen'] as const)('freezes nothing at %s', (status) => {
    expect(resultFreezes(soccer({ status }), null, NONE_HELD)).toEqual({});
  });
});

describe('resultFreezes: cricket', () => {
  it.each(['t20', 'one_day', 'the_hundred', null] as const)(
    'freezes half time at the innings break of a limited-overs match (%s)',
    (format) => {
      const snapshot = cricket({ status: 'innings_break', format });
      expect(resultFreezes(snapshot, format, NONE_HELD)).toEqual({ halfTime: snapshot });
    },
  );

  it('never freezes half time for a Test', () => {
    expect(resultFreezes(cricket({ status: 'innings_break', format: 'test' }), 'test', NONE_HELD)).toEqual(
      {},
    );
    expect(resultFreezes(cricket({ status: 'innings_break', format: null }), 'test', NONE_HELD)).toEqual({});
  });

  it('freezes only the first innings break', () => {
    const later = cricket({ status: 'innings_break', format: 't20', innings: 2 });
    expect(resultFreezes(later, 't20', { halfTime: true, fullTime: false })).toEqual({});
  });

  it('freezes full time at ended, once, for every format', () => {
    const test = cricket({ status: 'ended', format: 'test' });
    expect(resultFreezes(test, 'test', NONE_HELD)).toEqual({ fullTime: test });
    const t20 = cricket({ status: 'ended', format: 't20' });
    expect(resultFreezes(t20, 't20', { halfTime: true, fullTime: false })).toEqual({ fullTime: t20 });
    expect(resultFreezes(t20, 't20', { halfTime: true, fullTime: true })).toEqual({});
  });

  it.each(['not_started', 'live', 'rain', 'stumps'] as const)('freezes nothing at %s', (status) => {
    expect(resultFreezes(cricket({ status, format: 't20' }), 't20', NONE_HELD)).toEqual({});
  });
});
