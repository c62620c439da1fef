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
import { drain } from '../common/work-in-parts';

/*
 * Strict parsers for every body the sportsbook sends. A body of the wrong shape is a
 * feed fault: the parsers report it as a value so the poller keeps its last state,
 * they never throw. Unknown extra fields are ignored so the book may add fields.
 */

/**
 * Thrown inside this module only, turned into a `ParseResult` at each entry point. The
 * path of the faulty field is assembled while the error unwinds, so reading a valid body
 * of 100,000 markets builds no path strings.
 */
class ShapeError extends Error {
  constructor(
    public where: string,
    readonly what: string,
  ) {
    super(what);
  }
}

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

/** A book repeats the same few times (start times, cutoffs) across thousands of markets. */
const normalisedTimes = new Map<string, string | undefined>();
const NORMALISED_TIMES_KEPT = 10_000;

function normaliseCached(text: string): string | undefined {
  if (normalisedTimes.has(text)) return normalisedTimes.get(text);
  if (normalisedTimes.size >= NORMALISED_TIMES_KEPT) normalisedTimes.clear();
  const normalised = normaliseTime(text);
  normalisedTimes.set(text, normalised);
  return normalised;
}

function fail(where: string, what: string): never {
  throw new ShapeError(where, what);
}

/** Prefixes the path of an error thrown while reading `where`. */
function within<T>(where: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof ShapeError) err.where = err.where === '' ? where : `${where}.${err.where}`;
    throw err;
  }
}

function object(value: unknown, where = ''): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(where, 'expected an object');
  return value as Json;
}

function integer(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) fail(where, 'expected an integer');
  return value;
}

function finite(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(where, 'expected a number');
  return value;
}

function string(value: unknown, where: string): string {
  if (typeof value !== 'string') fail(where, 'expected a string');
  return value;
}

function boolean(value: unknown, where: string): boolean {
  if (typeof value !== 'boolean') fail(where, 'expected a boolean');
  return value;
}

function time(value: unknown, where: string): string {
  const normalised = normaliseCached(string(value, where));
  if (normalised === undefined) fail(where, 'expected an RFC 3339 time');
  return normalised;
}

function absent(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], where: string): T {
  const at = typeof value === 'string' ? (allowed as readonly string[]).indexOf(value) : -1;
  if (at < 0) fail(where, `expected one of ${allowed.join(', ')}`);
  // The allowed constant rather than the parsed copy: one string for every market of the book.
  return allowed[at];
}

function list<T>(value: unknown, where: string, read: (item: unknown) => T): T[] {
  if (!Array.isArray(value)) fail(where, 'expected an array');
  const out = new Array<T>(value.length);
  let i = 0;
  try {
    for (; i < value.length; i++) out[i] = read(value[i]);
  } catch (err) {
    throw atItem(err, where, i);
  }
  return out;
}

function atItem(err: unknown, where: string, i: number): unknown {
  if (err instanceof ShapeError)
    err.where = err.where === '' ? `${where}[${i}]` : `${where}[${i}].${err.where}`;
  return err;
}

/** Items read between two yields of a parted read: about a millisecond of work. */
const ITEMS_PER_PART = 2_000;

function* listInParts<T>(
  value: unknown,
  where: string,
  read: (item: unknown) => T,
): Generator<void, T[], void> {
  if (!Array.isArray(value)) fail(where, 'expected an array');
  const out = new Array<T>(value.length);
  let i = 0;
  try {
    while (i < value.length) {
      if (i > 0) yield;
      const end = Math.min(value.length, i + ITEMS_PER_PART);
      for (; i < end; i++) out[i] = read(value[i]);
    }
  } catch (err) {
    throw atItem(err, where, i);
  }
  return out;
}

function guard<T>(read: () => T): ParseResult<T> {
  try {
    return { ok: true, value: read() };
  } catch (err) {
    return failure(err);
  }
}

function* guardInParts<T>(read: () => Generator<void, T, void>): Generator<void, ParseResult<T>, void> {
  try {
    return { ok: true, value: yield* read() };
  } catch (err) {
    return failure(err);
  }
}

function failure(err: unknown): ParseResult<never> {
  if (err instanceof ShapeError) return { ok: false, error: `${err.where || 'body'}: ${err.what}` };
  throw err;
}

/*
 * Readers build every object with all of its fields, absent optional ones as undefined,
 * so all objects of one kind share a shape and the diff engine's loops stay fast.
 */

function readSport(value: unknown): UpstreamSport {
  const o = object(value);
  return { id: integer(o.id, 'id'), name: string(o.name, 'name') };
}

function readLabel(value: unknown): UpstreamPeriodLabel {
  const o = object(value);
  return { number: integer(o.number, 'number'), description: string(o.description, 'description') };
}

function readLeague(value: unknown): UpstreamLeague {
  const o = object(value);
  return { id: integer(o.id, 'id'), name: string(o.name, 'name') };
}

const ALIGNMENTS: readonly UpstreamAlignment[] = ['home', 'away', 'neutral'];

function readParticipant(value: unknown): UpstreamParticipant {
  const o = object(value);
  return {
    id: integer(o.id, 'id'),
    alignment: oneOf(o.alignment, ALIGNMENTS, 'alignment'),
    name: string(o.name, 'name'),
  };
}

function readMatchupPeriod(value: unknown): UpstreamMatchupPeriod {
  const o = object(value);
  return {
    number: integer(o.number, 'number'),
    status: string(o.status, 'status'),
    cutoff_at: absent(o.cutoff_at) ? undefined : time(o.cutoff_at, 'cutoff_at'),
  };
}

function readMatchup(value: unknown): UpstreamMatchup {
  const o = object(value);
  const type = oneOf(o.type, ['matchup', 'special'] as const, 'type');
  return {
    id: integer(o.id, 'id'),
    league_id: integer(o.league_id, 'league_id'),
    type,
    parent_id: absent(o.parent_id) ? null : integer(o.parent_id, 'parent_id'),
    is_live: boolean(o.is_live, 'is_live'),
    start_time: time(o.start_time, 'start_time'),
    version: integer(o.version, 'version'),
    participants: list(o.participants, 'participants', readParticipant),
    periods: list(o.periods, 'periods', readMatchupPeriod),
    special:
      type === 'special'
        ? within('special', () => ({ description: string(object(o.special).description, 'description') }))
        : undefined,
  };
}

const MARKET_TYPES: readonly UpstreamMarketType[] = ['moneyline', 'spread', 'total', 'team_total'];
const SIDES = ['home', 'away'] as const;

function readLimit(value: unknown): UpstreamLimit {
  const o = object(value);
  return { type: string(o.type, 'type'), amount: integer(o.amount, 'amount') };
}

const NO_LIMITS: readonly UpstreamLimit[] = [];
/** Distinct limit lists kept at most; past it the cache starts afresh. */
const MAX_LIMIT_LISTS = 1000;
/**
 * Equal limit lists, shared by every market that reads them. The markets of a
 * book repeat the same one or two limits, and the wire model is read-only, so
 * 100,000 markets hold a handful of lists instead of 100,000 arrays and
 * objects (about 9.6 MB).
 */
const limitLists = new Map<string, readonly UpstreamLimit[]>();

function sharedLimits(limits: readonly UpstreamLimit[]): readonly UpstreamLimit[] {
  if (limits.length === 0) return NO_LIMITS;
  let key = '';
  for (const limit of limits) key += `${limit.type}\u0000${limit.amount}\u0000`;
  const held = limitLists.get(key);
  if (held !== undefined) return held;
  if (limitLists.size >= MAX_LIMIT_LISTS) limitLists.clear();
  limitLists.set(key, limits);
  return limits;
}

function readPrice(value: unknown): UpstreamPrice {
  const o = object(value);
  const price = integer(o.price, 'price');
  if (price > -100 && price < 100) fail('price', 'American odds cannot lie between -100 and +100');
  const designation = absent(o.designation) ? undefined : string(o.designation, 'designation');
  const participantId = absent(o.participant_id) ? undefined : integer(o.participant_id, 'participant_id');
  if (designation === undefined && participantId === undefined) {
    fail('', 'expected a designation or a participant_id');
  }
  return {
    designation,
    participant_id: participantId,
    points: absent(o.points) ? undefined : finite(o.points, 'points'),
    price,
  };
}

function readMarket(value: unknown): UpstreamMarket {
  const o = object(value);
  const type = oneOf(o.type, MARKET_TYPES, 'type');
  return {
    matchup_id: integer(o.matchup_id, 'matchup_id'),
    key: string(o.key, 'key'),
    type,
    period: integer(o.period, 'period'),
    is_alternate: absent(o.is_alternate) ? false : boolean(o.is_alternate, 'is_alternate'),
    status: absent(o.status) ? undefined : string(o.status, 'status'),
    cutoff_at: absent(o.cutoff_at) ? undefined : time(o.cutoff_at, 'cutoff_at'),
    version: integer(o.version, 'version'),
    side: type === 'team_total' ? oneOf(o.side, SIDES, 'side') : undefined,
    limits: absent(o.limits) ? NO_LIMITS : sharedLimits(list(o.limits, 'limits', readLimit)),
    prices: list(o.prices, 'prices', readPrice),
  };
}

function readWithdrawn(value: unknown): UpstreamWithdrawn {
  const o = object(value);
  return { matchup_id: integer(o.matchup_id, 'matchup_id'), key: string(o.key, 'key') };
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
  return drain(marketsFullInParts(body));
}

/** `parseMarketsFull` a part at a time: a full list can hold 100,000 markets. */
export function* marketsFullInParts(body: unknown): Generator<void, ParseResult<UpstreamMarketsFull>, void> {
  return yield* guardInParts(function* () {
    const o = object(body);
    const last = integer(o.last, 'last');
    return { last, markets: yield* listInParts(o.markets, 'markets', readMarket) };
  });
}

/** `GET /sports/{sport}/markets?since=...`; a missing `withdrawn` means none. */
export function parseMarketsDelta(body: unknown): ParseResult<UpstreamMarketsDelta> {
  return drain(marketsDeltaInParts(body));
}

/** `parseMarketsDelta` a part at a time: a delta after a long gap can be as big as a full list. */
export function* marketsDeltaInParts(
  body: unknown,
): Generator<void, ParseResult<UpstreamMarketsDelta>, void> {
  return yield* guardInParts(function* () {
    const o = object(body);
    const last = integer(o.last, 'last');
    const markets = yield* listInParts(o.markets, 'markets', readMarket);
    const withdrawn = absent(o.withdrawn) ? [] : yield* listInParts(o.withdrawn, 'withdrawn', readWithdrawn);
    return { last, markets, withdrawn };
  });
}
