/**
 * `JSON.parse` of a big answer in parts. A full market list of 100,000
 * markets is tens of megabytes: parsed in one call it holds the event loop
 * for hundreds of milliseconds, seconds on a throttled core, longer than the
 * ingest lease's fence. Here the array member that makes the body big is cut
 * at its top-level commas and parsed a slice at a time; the generator yields
 * after each slice, and its caller lets the event loop run.
 *
 * The value is always the one `JSON.parse` gives for the whole text, and a
 * text that is not JSON throws `JSON.parse`'s own error: whenever the body
 * does not have the expected shape (not an object, no such member, anything
 * the cutting cannot vouch for), the whole text is parsed in one call.
 */

/** Text per slice: a few milliseconds of `JSON.parse`. */
export const JSON_PART_BYTES = 512 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const decoder = new TextDecoder();

interface ArraySlices {
  /** Offset of the member's `[` and of its matching `]`. */
  readonly open: number;
  readonly close: number;
}

/**
 * Parses `bytes` (UTF-8 JSON) as `JSON.parse` would, cutting the top-level
 * member `key` into slices of about `partBytes` when it holds an array.
 */
export function* parseJsonInParts(
  bytes: Uint8Array,
  key: string,
  partBytes = JSON_PART_BYTES,
): Generator<void, unknown, void> {
  const start = startOfText(bytes);
  if (bytes.length - start <= partBytes) return wholeText(bytes, start);
  const open = findArrayMember(bytes, start, key);
  if (open === undefined) return wholeText(bytes, start);
  const items: unknown[] = [];
  const slices = yield* parseElements(bytes, open, partBytes, items);
  if (!slices) return wholeText(bytes, start);
  let rest: unknown;
  try {
    rest = JSON.parse(
      `${decoder.decode(bytes.subarray(start, open))}[]${decoder.decode(bytes.subarray(slices.close + 1))}`,
    );
  } catch {
    return wholeText(bytes, start);
  }
  // A later duplicate of the member would win in JSON.parse: leave such a body to it.
  const member = (rest as Record<string, unknown>)[key];
  if (!Array.isArray(member) || member.length > 0 || mentions(bytes, slices.close, key))
    return wholeText(bytes, start);
  (rest as Record<string, unknown>)[key] = items;
  return rest;
}

/** Skips a byte-order mark, as `Response.json()` does. */
function startOfText(bytes: Uint8Array): number {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

function wholeText(bytes: Uint8Array, start: number): unknown {
  return JSON.parse(decoder.decode(bytes.subarray(start)));
}

/** Offset just past the closing quote of the string that opens at `at`, or -1. */
function endOfString(bytes: Uint8Array, at: number): number {
  let quote = at;
  for (;;) {
    quote = bytes.indexOf(QUOTE, quote + 1);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
  }
}

/**
 * Offset of the `[` that opens the top-level member `key`, or undefined when
 * the text is not an object holding such an array.
 */
function findArrayMember(bytes: Uint8Array, start: number, key: string): number | undefined {
  let at = start;
  while (at < bytes.length && isSpace(bytes[at])) at++;
  if (bytes[at] !== OPEN_BRACE) return undefined;
  let depth = 0;
  let lastString = -1;
  let lastStringEnd = -1;
  let memberKey: string | undefined;
  for (; at < bytes.length; at++) {
    const byte = bytes[at];
    if (byte === QUOTE) {
      const end = endOfString(bytes, at);
      if (end < 0) return undefined;
      lastString = at;
      lastStringEnd = end;
      at = end - 1;
    } else if (byte === COLON && depth === 1) {
      memberKey = keyText(bytes, lastString, lastStringEnd);
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (depth === 1 && byte === OPEN_BRACKET && memberKey === key) return at;
      depth++;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
      if (depth <= 0) return undefined;
    } else if (byte === COMMA && depth === 1) {
      memberKey = undefined;
    }
  }
  return undefined;
}

function keyText(bytes: Uint8Array, from: number, to: number): string | undefined {
  if (from < 0) return undefined;
  try {
    const text: unknown = JSON.parse(decoder.decode(bytes.subarray(from, to)));
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Parses the elements of the array that opens at `open` into `items`, a
 * slice of about `partBytes` at a time, yielding after each. Answers
 * undefined when a slice is not valid JSON or the array never closes.
 */
function* parseElements(
  bytes: Uint8Array,
  open: number,
  partBytes: number,
  items: unknown[],
): Generator<void, ArraySlices | undefined, void> {
  let depth = 0;
  let sliceStart = open + 1;
  for (let at = open + 1; at < bytes.length; at++) {
    const byte = bytes[at];
    if (byte === QUOTE) {
      const end = endOfString(bytes, at);
      if (end < 0) return undefined;
      at = end - 1;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth++;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      if (depth === 0) {
        if (byte !== CLOSE_BRACKET) return undefined;
        const isEmpty = sliceStart === open + 1 && isBlank(bytes, sliceStart, at);
        if (!isEmpty && !appendSlice(bytes, sliceStart, at, items)) return undefined;
        return { open, close: at };
      }
      depth--;
    } else if (byte === COMMA && depth === 0 && at - sliceStart >= partBytes) {
      if (!appendSlice(bytes, sliceStart, at, items)) return undefined;
      sliceStart = at + 1;
      yield;
    }
  }
  return undefined;
}

/** Parses the elements between `from` and `to` (a comma or the closing bracket); false if they are not JSON. */
function appendSlice(bytes: Uint8Array, from: number, to: number, items: unknown[]): boolean {
  // `[1,]` or `[,1]` would parse as a blank slice: they are not JSON.
  if (isBlank(bytes, from, to)) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(`[${decoder.decode(bytes.subarray(from, to))}]`);
  } catch {
    return false;
  }
  for (const item of parsed as unknown[]) items.push(item);
  return true;
}

function isBlank(bytes: Uint8Array, from: number, to: number): boolean {
  for (let at = from; at < to; at++) if (!isSpace(bytes[at])) return false;
  return true;
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Whether the text after `from` names `key` anywhere, or could through an escape. */
function mentions(bytes: Uint8Array, from: number, key: string): boolean {
  const tail = decoder.decode(bytes.subarray(from));
  return tail.includes(key) || tail.includes('\\');
}
