import { UnprocessableEntityException } from '@nestjs/common';

/** The raw query object of a request, as the `simple` query parser leaves it. */
export type RawQuery = Readonly<Record<string, unknown>>;

const INTEGER = /^[+-]?\d+$/;
/** `YYYY-MM-DDTHH:MM:SS`, optional fraction, then `Z` or a numeric offset. */
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
/** Largest value of a PostgreSQL `integer`, the type of every id we hand out. */
export const MAX_ID = 2_147_483_647;

function invalid(name: string, problem: string): UnprocessableEntityException {
  return new UnprocessableEntityException(`invalid parameter ${name}: ${problem}`);
}

/** A repeated parameter counts with its first value only; an empty value counts as absent. */
export function firstValue(query: RawQuery, name: string): string | undefined {
  const raw = query[name];
  const value: unknown = Array.isArray(raw) ? (raw as unknown[])[0] : raw;
  if (value === undefined || value === null || value === '') return undefined;
  // Only strings come from the query parser; anything else is malformed and fails the caller's check.
  return typeof value === 'string' ? value : '\u0000';
}

/** Parses an integer text; throws 422 naming `name` when it is not one. */
export function parseInteger(text: string, name: string): number {
  const trimmed = text.trim();
  if (!INTEGER.test(trimmed)) throw invalid(name, 'must be an integer');
  const value = Number(trimmed);
  if (!Number.isSafeInteger(value)) throw invalid(name, 'is out of range');
  return value;
}

export function optionalInteger(query: RawQuery, name: string): number | undefined {
  const text = firstValue(query, name);
  return text === undefined ? undefined : parseInteger(text, name);
}

export function requiredInteger(query: RawQuery, name: string): number {
  const text = firstValue(query, name);
  if (text === undefined) throw new UnprocessableEntityException(`missing required parameter: ${name}`);
  return parseInteger(text, name);
}

/** `limit` (at least 1) and `offset` (at least 0) as given; clamping and defaults are the pager's. */
export function pageQuery(query: RawQuery): { limit?: number; offset?: number } {
  const limit = optionalInteger(query, 'limit');
  const offset = optionalInteger(query, 'offset');
  if (limit !== undefined && limit < 1) throw invalid('limit', 'must be at least 1');
  if (offset !== undefined && offset < 0) throw invalid('offset', 'must be at least 0');
  return { limit, offset };
}

export function optionalDateTime(query: RawQuery, name: string): Date | undefined {
  const text = firstValue(query, name);
  if (text === undefined) return undefined;
  const match = DATETIME.exec(text.trim());
  const problem = 'must be a UTC datetime such as 2026-11-21T15:00:00Z';
  if (!match) throw invalid(name, problem);
  const [, year, month, day, hour, minute, second] = match.map(Number);
  const at = new Date(text.trim());
  // Date normalises 2026-02-30 to March; a calendar date that does not exist is not a datetime.
  const probe = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  const valid =
    !Number.isNaN(at.getTime()) &&
    probe.getUTCMonth() === month - 1 &&
    probe.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60;
  if (!valid) throw invalid(name, problem);
  return at;
}

export function optionalEnum<T extends string>(
  query: RawQuery,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const text = firstValue(query, name);
  if (text === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(text)) {
    throw invalid(name, `must be one of ${allowed.join(', ')}`);
  }
  return text as T;
}

/** A path id: 422 when not an integer; `null` for an integer no row can have (so: not found). */
export function pathId(text: string, name: string): number | null {
  const value = parseInteger(text, name);
  return value >= 1 && value <= MAX_ID ? value : null;
}

/** A query id that must be an integer; `null` for one no row can have (so: nothing matches). */
export function queryId(query: RawQuery, name: string): number | null {
  const value = requiredInteger(query, name);
  return value >= 1 && value <= MAX_ID ? value : null;
}
