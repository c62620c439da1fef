import {
  CRICKET_FORMATS,
  CRICKET_UPSTREAM_STATUSES,
  CricketFormat,
  Pair,
  SOCCER_STAT_KEYS,
  SOCCER_UPSTREAM_STATUSES,
  Side,
  SideOrNone,
  SoccerStatKey,
  UPSTREAM_MATCH_STATUSES,
  UpstreamBall,
  UpstreamBatsman,
  UpstreamBowler,
  UpstreamCricketState,
  UpstreamIncident,
  UpstreamKit,
  UpstreamLeague,
  UpstreamLiveEnvelope,
  UpstreamLiveState,
  UpstreamMatch,
  UpstreamSoccerExtras,
  UpstreamSoccerState,
  UpstreamSport,
  UpstreamTeam,
} from './livescores.types';
import {
  ParseResult,
  array,
  arrayOf,
  boolean,
  fail,
  id,
  integer,
  nonNegativeInteger,
  number,
  object,
  oneOf,
  optional,
  parseWith,
  string,
  text,
  timestamp,
} from './parse-result';

// Every parser is lenient where the contract is open (extra fields ignored,
// optional fields may be absent or null) and strict where a wrong value would
// corrupt what we store or publish (ids, statuses, seq, numbers).

const SIDES: readonly Side[] = ['home', 'away'];

/** `GET /sports` */
export function parseSports(body: unknown): ParseResult<UpstreamSport[]> {
  return parseWith(body, (b) =>
    arrayOf(b, 'sports', (v, p) => {
      const o = object(v, p);
      return { id: id(o.id, `${p}.id`), key: string(o.key, `${p}.key`), name: string(o.name, `${p}.name`) };
    }),
  );
}

/** `GET /sports/{id}/leagues` */
export function parseLeagues(body: unknown): ParseResult<UpstreamLeague[]> {
  return parseWith(body, (b) => arrayOf(b, 'leagues', idAndName));
}

/** `GET /leagues/{id}/teams` */
export function parseTeams(body: unknown): ParseResult<UpstreamTeam[]> {
  return parseWith(body, (b) => arrayOf(b, 'teams', idAndName));
}

/** `GET /leagues/{id}/matches` */
export function parseMatches(body: unknown): ParseResult<UpstreamMatch[]> {
  return parseWith(body, (b) => arrayOf(b, 'matches', match));
}

/** `GET /teams/{id}/kit` (the 200 body; a 404 means "not known yet" and is the caller's concern). */
export function parseKit(body: unknown): ParseResult<UpstreamKit> {
  return parseWith(body, (b) => {
    const o = object(b, 'kit');
    const url = string(o.url, 'kit.url');
    if (url.length === 0) fail('kit.url', 'non-empty string', url);
    return { url };
  });
}

/** One live stream message, or the body of `GET /live/{stat_id}`. */
export function parseLiveEnvelope(body: unknown): ParseResult<UpstreamLiveEnvelope> {
  return parseWith(body, (b) => {
    const o = object(b, 'message');
    return {
      stat_id: id(o.stat_id, 'stat_id'),
      seq: nonNegativeInteger(o.seq, 'seq'),
      sent_at: timestamp(o.sent_at, 'sent_at'),
      state: liveState(o.state, 'state'),
    };
  });
}

/** A live state on its own (the `state` of an envelope). */
export function parseLiveState(body: unknown): ParseResult<UpstreamLiveState> {
  return parseWith(body, (b) => liveState(b, 'state'));
}

function idAndName(v: unknown, p: string): { id: string; name: string } {
  const o = object(v, p);
  return { id: id(o.id, `${p}.id`), name: string(o.name, `${p}.name`) };
}

function match(v: unknown, p: string): UpstreamMatch {
  const o = object(v, p);
  return {
    id: id(o.id, `${p}.id`),
    stat_id: id(o.stat_id, `${p}.stat_id`),
    // live_id is a reference we only pass on, so an empty one is no reason to drop the whole list.
    live_id: o.live_id === '' ? null : (optional(o.live_id, `${p}.live_id`, id) ?? null),
    home_team_id: id(o.home_team_id, `${p}.home_team_id`),
    away_team_id: id(o.away_team_id, `${p}.away_team_id`),
    start_time: timestamp(o.start_time, `${p}.start_time`),
    status: oneOf(o.status, `${p}.status`, UPSTREAM_MATCH_STATUSES),
    format: cricketFormat(o.format, `${p}.format`),
  };
}

/** A format we do not know (yet) counts as unknown overs rather than failing the whole body. */
function cricketFormat(value: unknown, path: string): CricketFormat | null {
  if (value === undefined || value === null) return null;
  const format = string(value, path);
  return (CRICKET_FORMATS as readonly string[]).includes(format) ? (format as CricketFormat) : null;
}

function liveState(v: unknown, p: string): UpstreamLiveState {
  const o = object(v, p);
  const sport = string(o.sport, `${p}.sport`);
  if (sport === 'soccer') return soccerState(o, p);
  if (sport === 'cricket') return cricketState(o, p);
  return fail(`${p}.sport`, 'soccer or cricket', sport);
}

function competition(value: unknown, path: string): string | undefined {
  const name = optional(value, path, string);
  return name === undefined || name.trim().length === 0 ? undefined : name;
}

function sideOrNone(value: unknown, path: string): SideOrNone {
  if (value === undefined || value === null || value === '') return '';
  return oneOf(value, path, SIDES);
}

function pair<T>(value: unknown, path: string, read: (v: unknown, p: string) => T): Pair<T> {
  const items = array(value, path);
  if (items.length !== 2) fail(path, '[home, away]', value);
  return [read(items[0], `${path}[0]`), read(items[1], `${path}[1]`)];
}

function soccerState(o: Record<string, unknown>, p: string): UpstreamSoccerState {
  const clock = object(o.clock, `${p}.clock`);
  const score = object(o.score, `${p}.score`);
  const phase = object(o.phase, `${p}.phase`);
  const statsBody = object(o.stats, `${p}.stats`);
  const stats: Partial<Record<SoccerStatKey, Pair<number>>> = {};
  for (const key of SOCCER_STAT_KEYS) {
    const value = optional(statsBody[key], `${p}.stats.${key}`, (v, path) => pair(v, path, integer));
    if (value !== undefined) stats[key] = value;
  }
  const shootout = optional(score.shootout, `${p}.score.shootout`, (v, path) => {
    const s = object(v, path);
    return {
      home: nonNegativeInteger(s.home, `${path}.home`),
      away: nonNegativeInteger(s.away, `${path}.away`),
    };
  });
  const at = optional(clock.at, `${p}.clock.at`, timestamp);
  const ball = optional(o.ball, `${p}.ball`, soccerBall);
  const extras = optional(o.extras, `${p}.extras`, soccerExtras);
  return {
    sport: 'soccer',
    ...withOptional('competition', competition(o.competition, `${p}.competition`)),
    status: oneOf(o.status, `${p}.status`, SOCCER_UPSTREAM_STATUSES),
    clock: {
      minute: nonNegativeInteger(clock.minute, `${p}.clock.minute`),
      second: nonNegativeInteger(clock.second, `${p}.clock.second`),
      period: string(clock.period, `${p}.clock.period`),
      running: boolean(clock.running, `${p}.clock.running`),
      added: optional(clock.added, `${p}.clock.added`, nonNegativeInteger) ?? 0,
      ...withOptional('at', at),
    },
    score: {
      home: nonNegativeInteger(score.home, `${p}.score.home`),
      away: nonNegativeInteger(score.away, `${p}.score.away`),
      ...withOptional('shootout', shootout),
    },
    phase: { vc: integer(phase.vc, `${p}.phase.vc`), team: sideOrNone(phase.team, `${p}.phase.team`) },
    stats,
    incidents: optional(o.incidents, `${p}.incidents`, (v, path) => arrayOf(v, path, incident)) ?? [],
    ...withOptional('ball', ball),
    ...withOptional('extras', extras),
  };
}

function incident(v: unknown, p: string): UpstreamIncident {
  const o = object(v, p);
  return {
    vc: integer(o.vc, `${p}.vc`),
    minute: text(o.minute, `${p}.minute`),
    team: oneOf(o.team, `${p}.team`, SIDES),
    ...withOptional('player', optional(o.player, `${p}.player`, string)),
    ...withOptional('score', optional(o.score, `${p}.score`, string)),
  };
}

function soccerBall(v: unknown, p: string): UpstreamBall {
  const o = object(v, p);
  return {
    x: number(o.x, `${p}.x`),
    y: number(o.y, `${p}.y`),
    vc: integer(o.vc, `${p}.vc`),
    ...withOptional('minute', optional(o.minute, `${p}.minute`, text)),
    ...withOptional('detail', optional(o.detail, `${p}.detail`, string)),
  };
}

/**
 * `extras` is open-ended: an entry of a shape we do not recognise is dropped on
 * its own instead of failing the whole state (the rest of it is still good).
 */
function soccerExtras(v: unknown, p: string): UpstreamSoccerExtras | undefined {
  const o = object(v, p);
  const xg = lenient(() => optional(o.xg, 'xg', (x, path) => pair(x, path, number)));
  const pressure = lenient(() => optional(o.pressure, 'pressure', (x, path) => arrayOf(x, path, number)));
  const form = lenient(() => optional(o.form, 'form', (x, path) => pair(x, path, string)));
  const extras = {
    ...withOptional('xg', xg),
    ...withOptional('pressure', pressure),
    ...withOptional('form', form),
  };
  return Object.keys(extras).length === 0 ? undefined : extras;
}

function lenient<T>(read: () => T | undefined): T | undefined {
  const result = parseWith(undefined, read);
  return result.ok ? result.value : undefined;
}

function cricketState(o: Record<string, unknown>, p: string): UpstreamCricketState {
  const over = object(o.over, `${p}.over`);
  const lastEvent = optional(o.last_event, `${p}.last_event`, (v, path) => {
    const e = object(v, path);
    return { vc: integer(e.vc, `${path}.vc`), team: sideOrNone(e.team, `${path}.team`) };
  });
  return {
    sport: 'cricket',
    ...withOptional('competition', competition(o.competition, `${p}.competition`)),
    status: oneOf(o.status, `${p}.status`, CRICKET_UPSTREAM_STATUSES),
    format: cricketFormat(o.format, `${p}.format`),
    innings: nonNegativeInteger(o.innings, `${p}.innings`),
    batting: oneOf(o.batting, `${p}.batting`, SIDES),
    score: string(o.score, `${p}.score`),
    ...withOptional('set_score', optional(o.set_score, `${p}.set_score`, string)),
    over: {
      number: nonNegativeInteger(over.number, `${p}.over.number`),
      ball: nonNegativeInteger(over.ball, `${p}.over.ball`),
      this_over: optional(over.this_over, `${p}.over.this_over`, (v, path) => arrayOf(v, path, text)) ?? [],
    },
    batsmen: arrayOf(o.batsmen, `${p}.batsmen`, batsman),
    bowler: bowler(o.bowler, `${p}.bowler`),
    ...withOptional('last_event', lastEvent),
    ...withOptional('scorecard', optional(o.scorecard, `${p}.scorecard`, array)),
    ...withOptional('at', optional(o.at, `${p}.at`, timestamp)),
  };
}

function batsman(v: unknown, p: string): UpstreamBatsman {
  const o = object(v, p);
  return {
    name: string(o.name, `${p}.name`),
    runs: nonNegativeInteger(o.runs, `${p}.runs`),
    balls: nonNegativeInteger(o.balls, `${p}.balls`),
    ...withOptional('on_strike', optional(o.on_strike, `${p}.on_strike`, boolean)),
  };
}

function bowler(v: unknown, p: string): UpstreamBowler {
  const o = object(v, p);
  return {
    name: string(o.name, `${p}.name`),
    overs: text(o.overs, `${p}.overs`),
    maidens: nonNegativeInteger(o.maidens, `${p}.maidens`),
    runs: nonNegativeInteger(o.runs, `${p}.runs`),
    wickets: nonNegativeInteger(o.wickets, `${p}.wickets`),
  };
}

/** Spreads `{[key]: value}` only when the value is present, so absent fields stay absent (not undefined). */
function withOptional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
