import { cricketState, soccerState } from '../../../../../test/fixtures-live/livescores-bodies';
import type { UpstreamSoccerClock } from '../../upstream/livescores.types';
import { buildSnapshot, type SnapshotContext } from './build-snapshot';
import { projectClock } from './project-clock';
import type { SoccerSnapshot } from './snapshot.types';

const ctx: SnapshotContext = {
  homeName: 'Arsenal',
  awayName: 'Chelsea',
  leagueName: 'EPL',
  provider: { stat_id: 'st-77' },
  catalogFormat: null,
  producedAt: new Date('2026-11-21T15:23:11Z'),
};

function withClock(clock: UpstreamSoccerClock): SoccerSnapshot {
  return buildSnapshot(soccerState({ clock }), ctx);
}

const running = withClock({
  minute: 23,
  second: 10,
  period: '1H',
  running: true,
  added: 0,
  at: '2026-11-21T15:23:10Z',
});

describe('projectClock', () => {
  it('advances a running clock to the request time and re-anchors it there', () => {
    const projected = projectClock(running, new Date('2026-11-21T15:25:05Z'));
    expect(projected.clock).toEqual({
      minute: 25,
      second: 5,
      period: '1H',
      running: true,
      added: 0,
      as_of: '2026-11-21T15:25:05Z',
    });
  });

  it('keeps anchor and minute:second consistent when the request time has a fraction', () => {
    const projected = projectClock(running, new Date('2026-11-21T15:23:12.999Z'));
    expect(projected.clock).toMatchObject({ minute: 23, second: 12, as_of: '2026-11-21T15:23:12Z' });
  });

  it('carries over minute boundaries and long stoppages', () => {
    const projected = projectClock(running, new Date('2026-11-21T16:30:00Z'));
    expect(projected.clock).toMatchObject({ minute: 90, second: 0, as_of: '2026-11-21T16:30:00Z' });
  });

  it('changes only the clock', () => {
    const projected = projectClock(running, new Date('2026-11-21T15:25:05Z'));
    expect({ ...projected, clock: running.clock }).toEqual(running);
  });

  it('never mutates its input', () => {
    const before = structuredClone(running);
    projectClock(running, new Date('2026-11-21T15:40:00Z'));
    expect(running).toEqual(before);
  });

  it('leaves a stopped clock unchanged', () => {
    const stopped = withClock({
      minute: 45,
      second: 0,
      period: 'HT',
      running: false,
      added: 2,
      at: '2026-11-21T15:47:00Z',
    });
    expect(projectClock(stopped, new Date('2026-11-21T15:55:00Z'))).toEqual(stopped);
  });

  it('leaves a clock without anchor unchanged', () => {
    const unanchored = withClock({ minute: 0, second: 0, period: '1H', running: true, added: 0 });
    expect(projectClock(unanchored, new Date('2026-11-21T15:55:00Z'))).toEqual(unanchored);
  });

  it('never runs a clock backwards when the anchor is ahead of the request time', () => {
    const projected = projectClock(running, new Date('2026-11-21T15:23:05Z'));
    expect(projected.clock).toMatchObject({ minute: 23, second: 10, as_of: '2026-11-21T15:23:05Z' });
  });

  it('leaves a cricket snapshot unchanged', () => {
    const snapshot = buildSnapshot(cricketState(), ctx);
    expect(projectClock(snapshot, new Date('2026-11-21T18:00:00Z'))).toBe(snapshot);
  });
});
