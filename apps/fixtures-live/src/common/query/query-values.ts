/** What a parameter's text reads as: its value, or what is wrong with it. */
export type Reading<T> = { readonly value: T } | { readonly problem: string };

const INTEGER = /^[+-]?\d+$/;
/** `YYYY-MM-DDTHH:MM:SS`, optional fraction, then `Z` or a numeric offset. */
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const DATETIME_PROBLEM = 'must be a UTC datetime such as 2026-11-21T15:00:00Z';
/** Largest value of a PostgreSQL `integer`, the type of every id we hand out. */
export const MAX_ID = 2_147_483_647;

/** A repeated parameter counts with its first value only; an empty value counts as absent. */
export function firstValue(raw: unknown): string | undefined {
  const value: unknown = Array.isArray(raw) ? (raw as unknown[])[0] : raw;
  if (value === undefined || value === null || value === '') return undefined;
  // Only strings come from the query parser; anything else is malformed and fails every reading.
  return typeof value === 'string' ? value : '\u0000';
}

export function readInteger(text: string): Reading<number> {
  const trimmed = text.trim();
  if (!INTEGER.test(trimmed)) return { problem: 'must be an integer' };
  const value = Number(trimmed);
  return Number.isSafeInteger(value) ? { value } : { problem: 'is out of range' };
}

/** An id as given; `null` for an integer no row can have, so that it finds nothing instead of failing. */
export function readId(text: string): Reading<number | null> {
  const reading = readInteger(text);
  if (!('value' in reading)) return reading;
  return { value: reading.value >= 1 && reading.value <= MAX_ID ? reading.value : null };
}

export function readDateTime(text: string): Reading<Date> {
  const trimmed = text.trim();
  const match = DATETIME.exec(trimmed);
  if (!match) return { problem: DATETIME_PROBLEM };
  const [, year, month, day, hour, minute, second] = match.map(Number);
  const at = new Date(trimmed);
  // Date normalises 2026-02-30 to March; a calendar date that does not exist is not a datetime.
  const probe = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  const valid =
    !Number.isNaN(at.getTime()) &&
    probe.getUTCMonth() === month - 1 &&
    probe.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60;
  return valid ? { value: at } : { problem: DATETIME_PROBLEM };
}

export function readOneOf<T extends string>(allowed: readonly T[]): (text: string) => Reading<T> {
  return (text) =>
    (allowed as readonly string[]).includes(text)
      ? { value: text as T }
      : { problem: `must be one of ${allowed.join(', ')}` };
}
