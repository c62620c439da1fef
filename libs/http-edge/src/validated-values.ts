/** Keys the validation pipe strips from a value before validating it; such values are not remembered. */
const PROTO_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Raw values longer than this (as JSON) are validated every time rather than remembered. */
const MAX_KEY_LENGTH = 1024;

/**
 * The text a raw query or path value is remembered by, or undefined when it
 * is not worth or not safe to remember: only what the `simple` query parser
 * and Express's path parameters build (an object of strings and dense
 * string lists, no prototype keys) and only up to `MAX_KEY_LENGTH`. Two
 * values with the same text are the same input to a DTO's transforms.
 * `ignored` names parameters no DTO declares (the pipe drops them before
 * validating), such as the API key: they are left out of the text, so
 * nothing secret is kept and clients with different keys share entries.
 */
export function rawValueKey(value: unknown, ignored: ReadonlySet<string> = NONE): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const fields = value as Record<string, unknown>;
  let kept: Record<string, unknown> | undefined;
  for (const key of Object.keys(fields)) {
    if (ignored.has(key)) {
      kept ??= {};
      continue;
    }
    if (PROTO_KEYS.has(key) || !isTextOrTextList(fields[key])) return undefined;
  }
  if (kept) for (const key of Object.keys(fields)) if (!ignored.has(key)) kept[key] = fields[key];
  const text = JSON.stringify(kept ?? value);
  return text.length <= MAX_KEY_LENGTH ? text : undefined;
}

const NONE: ReadonlySet<string> = new Set();

function isTextOrTextList(value: unknown): boolean {
  if (typeof value === 'string') return true;
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false;
  return true;
}

/**
 * A copy of a remembered DTO for one request: the same class and fields, its
 * dates copied, so a handler that changed what it was given could not change
 * what the next request receives.
 */
export function copyOfValidated<T extends object>(validated: T): T {
  const copy = Object.create(Object.getPrototypeOf(validated) as object | null) as Record<string, unknown>;
  for (const [key, field] of Object.entries(validated)) {
    copy[key] = field instanceof Date ? new Date(field.getTime()) : field;
  }
  return copy as T;
}

/**
 * DTOs that passed validation, by DTO class and raw value key, so a request
 * repeating a query another one sent skips the transform and the validation.
 * Bounded: when full it starts afresh (the keys in use come back at once).
 * Failures are never remembered, so a refusal always comes from the pipe.
 */
export class ValidatedValues {
  private readonly byClass = new Map<unknown, Map<string, object>>();
  private size = 0;

  constructor(private readonly maxEntries: number) {}

  get(dtoClass: unknown, key: string): object | undefined {
    return this.byClass.get(dtoClass)?.get(key);
  }

  set(dtoClass: unknown, key: string, validated: object): void {
    if (this.size >= this.maxEntries) {
      this.byClass.clear();
      this.size = 0;
    }
    let entries = this.byClass.get(dtoClass);
    if (!entries) this.byClass.set(dtoClass, (entries = new Map<string, object>()));
    if (!entries.has(key)) this.size++;
    entries.set(key, validated);
  }
}
