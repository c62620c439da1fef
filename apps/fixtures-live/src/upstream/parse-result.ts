/**
 * Result of parsing a provider body. A body of the wrong shape is a feed fault
 * the caller logs and survives, so parsers report it instead of throwing.
 */
export type ParseResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

/** Raised inside a parser only; `parseWith` turns it into a failed result. */
class WireShapeError extends Error {}

type Json = Record<string, unknown>;

/** Runs a parser written with the readers below and never lets an exception escape. */
export function parseWith<T>(body: unknown, parse: (body: unknown) => T): ParseResult<T> {
  try {
    return { ok: true, value: parse(body) };
  } catch (error) {
    if (error instanceof WireShapeError) return { ok: false, error: error.message };
    return { ok: false, error: `unreadable body: ${error instanceof Error ? error.message : String(error)}` };
  }
}

export function fail(path: string, expected: string, got: unknown): never {
  throw new WireShapeError(`${path}: expected ${expected}, got ${describe(got)}`);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') return value.length > 40 ? 'string' : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value;
}

export function object(value: unknown, path: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'object', value);
  return value as Json;
}

export function array(value: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(value)) fail(path, 'array', value);
  return value;
}

export function arrayOf<T>(value: unknown, path: string, item: (value: unknown, path: string) => T): T[] {
  return array(value, path).map((entry, index) => item(entry, `${path}[${index}]`));
}

export function string(value: unknown, path: string): string {
  if (typeof value !== 'string') fail(path, 'string', value);
  return value;
}

/** A provider id: a non-empty string (numbers are not silently accepted). */
export function id(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length === 0) fail(path, 'non-empty string id', value);
  return value;
}

export function number(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(path, 'number', value);
  return value;
}

export function integer(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) fail(path, 'integer', value);
  return value;
}

export function nonNegativeInteger(value: unknown, path: string): number {
  const n = integer(value, path);
  if (n < 0) fail(path, 'integer >= 0', value);
  return n;
}

export function boolean(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') fail(path, 'boolean', value);
  return value;
}

export function oneOf<T extends string>(value: unknown, path: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    fail(path, `one of ${allowed.join(', ')}`, value);
  }
  return value as T;
}

/** Text that may arrive as a string or a number (minutes such as "17" or 17). */
export function text(value: unknown, path: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return fail(path, 'string', value);
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 timestamp, kept as sent. */
export function timestamp(value: unknown, path: string): string {
  if (typeof value !== 'string' || !RFC3339.test(value) || Number.isNaN(Date.parse(value))) {
    fail(path, 'RFC 3339 timestamp', value);
  }
  return value;
}

/** Absent and null both mean "not given" for optional fields. */
export function optional<T>(
  value: unknown,
  path: string,
  read: (value: unknown, path: string) => T,
): T | undefined {
  return value === undefined || value === null ? undefined : read(value, path);
}
