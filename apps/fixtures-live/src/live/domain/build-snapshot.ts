import type {
  CricketFormat,
  CricketUpstreamStatus,
  Pair,
  SoccerUpstreamStatus,
  UpstreamBall,
  UpstreamCricketState,
  UpstreamLiveState,
  UpstreamSoccerState,
} from '../../upstream/livescores.types';
import { SOCCER_STAT_KEYS } from '../../upstream/livescores.types';
import { decodeCricketEvent, decodePhase, incidentLabel, incidentType } from './code-tables';
import { parseCricketScore } from './cricket-score';
import type {
  CricketSnapshot,
  CricketStatus,
  HomeAway,
  LiveSnapshot,
  MatchType,
  ProviderRef,
  SoccerBall,
  SoccerEvent,
  SoccerSnapshot,
  SoccerStats,
  SoccerStatus,
} from './snapshot.types';
import { formatUtcSeconds, normalizeUtcSeconds } from './utc-time';

/** What the catalog knows about the match, which the live state does not carry. */
export interface SnapshotContext {
  readonly homeName: string;
  readonly awayName: string;
  readonly leagueName: string;
  readonly provider: {
    readonly stat_id: string;
    readonly live_id?: string | null;
    readonly fixture_id?: string | null;
  };
  readonly catalogFormat: CricketFormat | null;
  readonly producedAt: Date;
}

const SOCCER_STATUS: Readonly<Record<SoccerUpstreamStatus, SoccerStatus>> = {
  not_started: 'not_started',
  '1h': 'live',
  ht: 'ht',
  '2h': 'live',
  et: 'et',
  pen: 'shootout',
  ft: 'ft',
};

const CRICKET_STATUS: Readonly<Record<CricketUpstreamStatus, CricketStatus>> = {
  not_started: 'not_started',
  live: 'live',
  innings_break: 'innings_break',
  rain: 'stopped',
  bad_light: 'stopped',
  lunch: 'stopped',
  tea: 'stopped',
  drinks: 'stopped',
  stumps: 'stopped',
  ended: 'ended',
};

/** The public snapshot of one upstream state (without `match_id`, which stream frames add). */
export function buildSnapshot(state: UpstreamSoccerState, ctx: SnapshotContext): SoccerSnapshot;
export function buildSnapshot(state: UpstreamCricketState, ctx: SnapshotContext): CricketSnapshot;
export function buildSnapshot(state: UpstreamLiveState, ctx: SnapshotContext): LiveSnapshot;
export function buildSnapshot(state: UpstreamLiveState, ctx: SnapshotContext): LiveSnapshot {
  return state.sport === 'soccer' ? buildSoccerSnapshot(state, ctx) : buildCricketSnapshot(state, ctx);
}

/** Cricket format of a match: the catalog's when it knows it, else the live state's, else unknown overs. */
export function resolveMatchType(
  catalogFormat: CricketFormat | null,
  stateFormat: CricketFormat | null,
): MatchType {
  return catalogFormat ?? stateFormat ?? 'limited_overs';
}

function buildSoccerSnapshot(state: UpstreamSoccerState, ctx: SnapshotContext): SoccerSnapshot {
  const asOf = state.clock.at === undefined ? null : normalizeUtcSeconds(state.clock.at);
  const phase = decodePhase(state.phase.vc);
  const extras = state.extras;
  return {
    v: 1,
    provider: providerRef(ctx),
    sport: 'soccer',
    competition: state.competition ?? ctx.leagueName,
    home: ctx.homeName,
    away: ctx.awayName,
    status: SOCCER_STATUS[state.status],
    clock: {
      minute: state.clock.minute,
      second: state.clock.second,
      period: state.clock.period,
      running: state.clock.running,
      added: state.clock.added,
      ...(asOf === null ? {} : { as_of: asOf }),
    },
    score: {
      home: state.score.home,
      away: state.score.away,
      ...(state.score.shootout ? { shootout: { ...state.score.shootout } } : {}),
    },
    phase: { team: state.phase.team, code: phase.code, label: phase.label, vc: state.phase.vc },
    stats: soccerStats(state),
    events: soccerEvents(state),
    ...(state.ball ? { ball: soccerBall(state.ball) } : {}),
    ...(extras?.xg ? { xg: homeAway(extras.xg) } : {}),
    ...(extras?.pressure ? { pressure: [...extras.pressure] } : {}),
    ...(extras?.form ? { form: homeAway(extras.form) } : {}),
    updated_at: formatUtcSeconds(ctx.producedAt),
  };
}

function providerRef(ctx: SnapshotContext): ProviderRef {
  const { stat_id, live_id, fixture_id } = ctx.provider;
  return {
    stat_id,
    ...(live_id ? { live_id } : {}),
    ...(fixture_id ? { fixture_id } : {}),
  };
}

function homeAway<T>([home, away]: Pair<T>): HomeAway<T> {
  return { home, away };
}

function soccerStats(state: UpstreamSoccerState): SoccerStats {
  const stats: SoccerStats = {};
  for (const key of SOCCER_STAT_KEYS) {
    const value = state.stats[key];
    if (value) stats[key] = homeAway(value);
  }
  return stats;
}

function soccerEvents(state: UpstreamSoccerState): SoccerEvent[] | null {
  if (state.incidents.length === 0) return null;
  return state.incidents.map((incident) => {
    const type = incidentType(incident.vc);
    const event: SoccerEvent = {
      minute: incident.minute,
      type,
      team: incident.team,
      label: incidentLabel(type, incident.player),
    };
    if (type === 'goal' && incident.score !== undefined) event.score = incident.score;
    return event;
  });
}

/** Animation positions carry x, y and event only; an anchored position adds its minute and detail. */
function soccerBall(ball: UpstreamBall): SoccerBall {
  const out: SoccerBall = { x: ball.x, y: ball.y, event: decodePhase(ball.vc).code };
  if (ball.minute !== undefined) out.minute = ball.minute;
  if (ball.detail !== undefined) out.detail = ball.detail;
  return out;
}

function buildCricketSnapshot(state: UpstreamCricketState, ctx: SnapshotContext): CricketSnapshot {
  const lastEvent = state.last_event;
  return {
    sport: 'cricket',
    competition: state.competition ?? ctx.leagueName,
    home: ctx.homeName,
    away: ctx.awayName,
    status: CRICKET_STATUS[state.status],
    match_type: resolveMatchType(ctx.catalogFormat, state.format),
    innings: state.innings,
    batting: state.batting,
    score: parseCricketScore(state.score),
    ...(state.set_score === undefined ? {} : { set_score: state.set_score }),
    over: { over: state.over.number, ball: state.over.ball, this_over: [...state.over.this_over] },
    batsmen: state.batsmen.map((b) => ({
      name: b.name,
      runs: b.runs,
      balls: b.balls,
      ...(b.on_strike === true ? { on_strike: true as const } : {}),
    })),
    bowler: { ...state.bowler },
    ...(lastEvent
      ? { last_event: { vc: lastEvent.vc, team: lastEvent.team, ...decodeCricketEvent(lastEvent.vc) } }
      : {}),
    ...(state.scorecard ? { scorecard: [...state.scorecard] } : {}),
    t: (state.at === undefined ? null : normalizeUtcSeconds(state.at)) ?? formatUtcSeconds(ctx.producedAt),
  };
}
