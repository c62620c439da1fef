/** A repeated parameter counts by its first value. */
export function firstValue(raw: unknown): unknown {
  return Array.isArray(raw) ? (raw as unknown[])[0] : raw;
}

/**
 * An id of the book (sport, league, match) given as a parameter: a
 * non-negative integer of at most 15 digits, so it stays exact as a number;
 * `undefined` for anything else, an empty value included.
 */
export function readBookId(value: unknown): number | undefined {
  return typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}
