import type {
  ParseResult,
  UpstreamAlignment,
  UpstreamLeague,
  UpstreamLimit,
  UpstreamMarket,
  UpstreamMarketType,
  UpstreamMarketsDelta,
  UpstreamMarketsFull,
  UpstreamMatchup,
  UpstreamMatchupPeriod,
  UpstreamParticipant,
  UpstreamPeriodLabel,
  UpstreamPrice,
  UpstreamSport,
  UpstreamWithdrawn,
} from './sportsbook.types';

/*
 * Strict parsers for every body the sportsbook sends. A body of the wrong shape is a
 * feed fault: the parsers report it as a value so the poller keeps its last state,
 * they never throw. Unknown extra fields are ignored so the book may add fields.
 */

/** Thrown inside this module only, turned into a `ParseResult` at each entry point. */
class ShapeError extends Error {}

type Json = Record<string, unknown>;

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * Normalises an RFC 3339 time (offset, fractional seconds) to `YYYY-MM-DDTHH:MM:SSZ`.
 * Fractions are truncated: a cutoff never moves later than the book said.
 */
export function normaliseTime(text: string): string | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return undefined;
  let ms = Date.UTC(year, month - 1, day, hour, minute, second);
  if (m[8] === undefined) {
    const offHours = Number(m[10]);
    const offMinutes = Number(m[11]);
    if (offHours > 23 || offMinutes > 59) return undefined;
    const offset = (offHours * 60 + offMinutes) * 60_000;
    ms += m[9] === '+' ? -offset : offset;
  }
  const d = new Date(ms);
  if (d.getUTCFullYear() < 0 || d.getUTCFullYear() > 9999) return undefined;
  return `${d.toISOString().slice(0, 19)}Z`;
}

function fail(path: string, what: string): never {
  throw new ShapeError(`${path}: ${what}`);
}

function object(value: unknown, path: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'expected an object');
  return value as Json;
}

function array(value: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(value)) fail(path, 'expected an array');
  return value;
}

function integer(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) fail(path, 'expected an integer');
  return value;
}

function finite(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(path, 'expected a number');
  return value;
}

function string(value: unknown, path: string): string {
  if (typeof value !== 'string') fail(path, 'expected a string');
  return value;
}

function boolean(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') fail(path, 'expected a boolean');
  return value;
}

function time(value: unknown, path: string): string {
  const normalised = normaliseTime(string(value, path));
  if (normalised === undefined) fail(path, 'expected an RFC 3339 time');
  return normalised;
}

function optional<T>(value: unknown, read: (v: unknown) => T): T | undefined {
  return value === undefined || value === null ? undefined : read(value);
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], path: string): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    fail(path, `expected one of ${allowed.join(', ')}`);
  }
  return value as T;
}

function list<T>(value: unknown, path: string, read: (item: unknown, path: string) => T): T[] {
  const items = array(value, path);
  const out = new Array<T>(items.length);
  for (let i = 0; i < items.length; i++) out[i] = read(items[i], `${path}[${i}]`);
  return out;
}

function guard<T>(read: () => T): ParseResult<T> {
  try {
    return { ok: true, value: read() };
  } catch (err) {
    if (err instanceof ShapeError) return { ok: false, error: err.message };
    throw err;
  }
}

function readSport(value: unknown, path: string): UpstreamSport {
  const o = object(value, path);
  return { id: integer(o.id, `${path}.id`), name: string(o.name, `${path}.name`) };
}

function readLabel(value: unknown, path: string): UpstreamPeriodLabel {
  const o = object(value, path);
  return {
    number: integer(o.number, `${path}.number`),
    description: string(o.description, `${path}.description`),
  };
}

function readLeague(value: unknown, path: string): UpstreamLeague {
  const o = object(value, path);
  return { id: integer(o.id, `${path}.id`), name: string(o.name, `${path}.name`) };
}

const ALIGNMENTS: readonly UpstreamAlignment[] = ['home', 'away', 'neutral'];

function readParticipant(value: unknown, path: string): UpstreamParticipant {
  const o = object(value, path);
  return {
    id: integer(o.id, `${path}.id`),
    alignment: oneOf(o.alignment, ALIGNMENTS, `${path}.alignment`),
    name: string(o.name, `${path}.name`),
  };
}

function readMatchupPeriod(value: unknown, path: string): UpstreamMatchupPeriod {
  const o = object(value, path);
  const cutoff = optional(o.cutoff_at, (v) => time(v, `${path}.cutoff_at`));
  return {
    number: integer(o.number, `${path}.number`),
    status: string(o.status, `${path}.status`),
    ...(cutoff === undefined ? {} : { cutoff_at: cutoff }),
  };
}

function readMatchup(value: unknown, path: string): UpstreamMatchup {
  const o = object(value, path);
  const type = oneOf(o.type, ['matchup', 'special'] as const, `${path}.type`);
  const matchup: UpstreamMatchup = {
    id: integer(o.id, `${path}.id`),
    league_id: integer(o.league_id, `${path}.league_id`),
    type,
    parent_id: optional(o.parent_id, (v) => integer(v, `${path}.parent_id`)) ?? null,
    is_live: boolean(o.is_live, `${path}.is_live`),
    start_time: time(o.start_time, `${path}.start_time`),
    version: integer(o.version, `${path}.version`),
    participants: list(o.participants, `${path}.participants`, readParticipant),
    periods: list(o.periods, `${path}.periods`, readMatchupPeriod),
  };
  if (type !== 'special') return matchup;
  const special = object(o.special, `${path}.special`);
  return { ...matchup, special: { description: string(special.description, `${path}.special.description`) } };
}

const MARKET_TYPES: readonly UpstreamMarketType[] = ['moneyline', 'spread', 'total', 'team_total'];

function readLimit(value: unknown, path: string): UpstreamLimit {
  const o = object(value, path);
  return { type: string(o.type, `${path}.type`), amount: integer(o.amount, `${path}.amount`) };
}

function readPrice(value: unknown, path: string): UpstreamPrice {
  const o = object(value, path);
  const price = integer(o.price, `${path}.price`);
  if (price > -100 && price < 100) fail(`${path}.price`, 'American odds cannot lie between -100 and +100');
  const designation = optional(o.designation, (v) => string(v, `${path}.designation`));
  const participantId = optional(o.participant_id, (v) => integer(v, `${path}.participant_id`));
  if (designation === undefined && participantId === undefined) {
    fail(path, 'expected a designation or a participant_id');
  }
  const points = optional(o.points, (v) => finite(v, `${path}.points`));
  return {
    ...(designation === undefined ? {} : { designation }),
    ...(participantId === undefined ? {} : { participant_id: participantId }),
    ...(points === undefined ? {} : { points }),
    price,
  };
}

function readMarket(value: unknown, path: string): UpstreamMarket {
  const o = object(value, path);
  const type = oneOf(o.type, MARKET_TYPES, `${path}.type`);
  const status = optional(o.status, (v) => string(v, `${path}.status`));
  const cutoff = optional(o.cutoff_at, (v) => time(v, `${path}.cutoff_at`));
  const side = type === 'team_total' ? oneOf(o.side, ['home', 'away'] as const, `${path}.side`) : undefined;
  return {
    matchup_id: integer(o.matchup_id, `${path}.matchup_id`),
    key: string(o.key, `${path}.key`),
    type,
    period: integer(o.period, `${path}.period`),
    is_alternate: optional(o.is_alternate, (v) => boolean(v, `${path}.is_alternate`)) ?? false,
    ...(status === undefined ? {} : { status }),
    ...(cutoff === undefined ? {} : { cutoff_at: cutoff }),
    version: integer(o.version, `${path}.version`),
    ...(side === undefined ? {} : { side }),
    limits: list(o.limits ?? [], `${path}.limits`, readLimit),
    prices: list(o.prices, `${path}.prices`, readPrice),
  };
}

function readWithdrawn(value: unknown, path: string): UpstreamWithdrawn {
  const o = object(value, path);
  return { matchup_id: integer(o.matchup_id, `${path}.matchup_id`), key: string(o.key, `${path}.key`) };
}

/** `GET /sports` */
export function parseSports(body: unknown): ParseResult<UpstreamSport[]> {
  return guard(() => list(body, 'sports', readSport));
}

/** `GET /sports/{sport}/periods`; an empty table is valid (the book is cold). */
export function parsePeriodLabels(body: unknown): ParseResult<UpstreamPeriodLabel[]> {
  return guard(() => list(body, 'periods', readLabel));
}

/** `GET /sports/{sport}/leagues` */
export function parseLeagues(body: unknown): ParseResult<UpstreamLeague[]> {
  return guard(() => list(body, 'leagues', readLeague));
}

/** `GET /sports/{sport}/matchups`, specials included. */
export function parseMatchups(body: unknown): ParseResult<UpstreamMatchup[]> {
  return guard(() => list(body, 'matchups', readMatchup));
}

/** `GET /sports/{sport}/markets` without a cursor. */
export function parseMarketsFull(body: unknown): ParseResult<UpstreamMarketsFull> {
  return guard(() => {
    const o = object(body, 'body');
    return { last: integer(o.last, 'last'), markets: list(o.markets, 'markets', readMarket) };
  });
}

/** `GET /sports/{sport}/markets?since=...`; a missing `withdrawn` means none. */
export function parseMarketsDelta(body: unknown): ParseResult<UpstreamMarketsDelta> {
  return guard(() => {
    const o = object(body, 'body');
    return {
      last: integer(o.last, 'last'),
      markets: list(o.markets, 'markets', readMarket),
      withdrawn: list(o.withdrawn ?? [], 'withdrawn', readWithdrawn),
    };
  });
}
