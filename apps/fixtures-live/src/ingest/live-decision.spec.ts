import { decideLiveUpdate, type MatchMemory, remember } from './live-decision';
import type { KnownMatch } from './match-registry';
import { parseLiveState } from '../upstream/livescores.parsers';
import type { UpstreamLiveState } from '../upstream/livescores.types';

const AT = new Date('2026-11-21T15:30:00Z');

const soccerMatch: KnownMatch = {
  id: 7,
  sportId: 1,
  providerId: 'fx-1',
  statId: 'st-1',
  liveId: null,
  homeTeam: 'Arsenal',
  awayTeam: 'Chelsea',
  leagueName: 'Premier League',
  format: null,
  hidden: false,
};
const testMatch: KnownMatch = {
  ...soccerMatch,
  id: 8,
  homeTeam: 'England',
  awayTeam: 'Australia',
  format: 'test',
};

function state(body: Record<string, unknown>): UpstreamLiveState {
  const parsed = parseLiveState(body);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

function soccer(status: string, overrides: Record<string, unknown> = {}): UpstreamLiveState {
  return state({
    sport: 'soccer',
    status,
    clock: { minute: 10, second: 0, period: '1H', running: true, added: 0, at: '2026-11-21T15:10:00Z' },
    score: { home: 0, away: 0 },
    phase: { vc: 1001, team: 'home' },
    stats: {},
    incidents: [{ vc: 2002, minute: '5', team: 'home' }],
    ...overrides,
  });
}

function cricket(status: string, overrides: Record<string, unknown> = {}): UpstreamLiveState {
  return state({
    sport: 'cricket',
    status,
    format: 'test',
    innings: 1,
    batting: 'home',
    score: '100/2 (30.0)',
    over: { number: 31, ball: 0, this_over: [] },
    batsmen: [{ name: 'Root', runs: 50, balls: 80, on_strike: true }],
    bowler: { name: 'Cummins', overs: '10.0', maidens: 2, runs: 30, wickets: 1 },
    ...overrides,
  });
}

const fresh = (): MatchMemory => ({
  lastState: null,
  liveStatus: null,
  held: { halfTime: false, fullTime: false },
});

describe('decideLiveUpdate', () => {
  it('applies a first state: snapshot built with catalog names, status moved to STARTED', () => {
    const decision = decideLiveUpdate(fresh(), soccer('1h'), soccerMatch, AT);
    expect(decision).toMatchObject({
      kind: 'apply',
      liveStatus: 'STARTED',
      statusChanged: true,
      snapshot: {
        home: 'Arsenal',
        away: 'Chelsea',
        competition: 'Premier League',
        updated_at: '2026-11-21T15:30:00Z',
      },
      freezes: {},
    });
  });

  it('skips an unchanged state and reports no status move for a changed state with the same status', () => {
    const first = soccer('1h');
    const memory = remember(fresh(), first, decideLiveUpdate(fresh(), first, soccerMatch, AT));
    expect(decideLiveUpdate(memory, soccer('1h'), soccerMatch, AT)).toEqual({
      kind: 'skip',
      reason: 'unchanged',
    });
    const moved = decideLiveUpdate(memory, soccer('1h', { score: { home: 1, away: 0 } }), soccerMatch, AT);
    expect(moved).toMatchObject({ kind: 'apply', statusChanged: false });
  });

  it('freezes half time and full time once each', () => {
    let memory = fresh();
    const step = (next: UpstreamLiveState) => {
      const decision = decideLiveUpdate(memory, next, soccerMatch, AT);
      memory = remember(memory, next, decision);
      return decision;
    };
    const ht = step(soccer('ht'));
    expect(ht.kind === 'apply' && ht.freezes.halfTime).toBeTruthy();
    const htAgain = step(soccer('ht', { score: { home: 1, away: 0 } }));
    expect(htAgain.kind === 'apply' && htAgain.freezes).toEqual({});
    const ft = step(soccer('ft'));
    expect(ft).toMatchObject({ kind: 'apply', liveStatus: 'FINISHED', statusChanged: true });
    expect(ft.kind === 'apply' && ft.freezes.fullTime).toBeTruthy();
    const ftAgain = step(soccer('ft', { score: { home: 3, away: 3 } }));
    expect(ftAgain.kind === 'apply' && ftAgain.freezes).toEqual({});
    expect(memory.held).toEqual({ halfTime: true, fullTime: true });
  });

  it('lets the stumps state of a Test through once, then stays frozen until play resumes', () => {
    let memory = remember(
      fresh(),
      cricket('live'),
      decideLiveUpdate(fresh(), cricket('live'), testMatch, AT),
    );
    const stumps = decideLiveUpdate(memory, cricket('stumps'), testMatch, AT);
    expect(stumps).toMatchObject({ kind: 'apply', liveStatus: 'CLOSE_OF_PLAY', statusChanged: true });
    memory = remember(memory, cricket('stumps'), stumps);
    const overnight = cricket('stumps', { at: '2026-11-21T20:00:00Z', score: '100/2 (30.0)' });
    expect(decideLiveUpdate(memory, overnight, testMatch, AT)).toEqual({ kind: 'skip', reason: 'frozen' });
    const resumed = decideLiveUpdate(memory, cricket('live', { score: '101/2 (30.1)' }), testMatch, AT);
    expect(resumed).toMatchObject({ kind: 'apply', liveStatus: 'STARTED', statusChanged: true });
  });

  it('does not freeze a limited-overs match at stumps', () => {
    const t20: KnownMatch = { ...testMatch, format: 't20' };
    const decision = decideLiveUpdate(fresh(), cricket('stumps', { format: 't20' }), t20, AT);
    expect(decision).toMatchObject({ kind: 'apply', liveStatus: 'STARTED' });
  });
});
