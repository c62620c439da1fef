import { createHash } from 'node:crypto';

/**
 * The strong entity tag of a body: SHA-1 of its bytes, base64url, quoted.
 * It depends on nothing but the bytes, so every replica that sends the same
 * body sends the same tag. A string is hashed as the UTF-8 it is sent as.
 */
export function entityTag(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** `*`, or the opaque tags (quotes kept, `W/` dropped) an `If-None-Match` value lists. */
export type IfNoneMatch = '*' | readonly string[];

/**
 * Reads an `If-None-Match` value: `*`, or a comma-separated list of entity
 * tags, each possibly weak (`W/"..."`). A comma inside quotes belongs to the
 * tag. A tag a client left unquoted is taken up to the next comma rather
 * than dropped. Absent or empty: an empty list, which matches nothing.
 */
export function parseIfNoneMatch(header: string | readonly string[] | undefined): IfNoneMatch {
  const value = Array.isArray(header) ? header.join(', ') : ((header as string | undefined) ?? '');
  const tags: string[] = [];
  let at = 0;
  while (at < value.length) {
    const char = value[at];
    if (char === ' ' || char === '\t' || char === ',') {
      at++;
      continue;
    }
    if (char === '*') return '*';
    if (value.startsWith('W/', at)) at += 2;
    if (value[at] === '"') {
      const close = value.indexOf('"', at + 1);
      const end = close === -1 ? value.length : close + 1;
      tags.push(close === -1 ? `${value.slice(at)}"` : value.slice(at, end));
      at = end;
    } else {
      const comma = value.indexOf(',', at);
      const end = comma === -1 ? value.length : comma;
      const bare = value.slice(at, end).trim();
      if (bare !== '') tags.push(`"${bare}"`);
      at = end;
    }
  }
  return tags;
}

/**
 * Whether a GET or HEAD answer tagged `tag` is one the client already holds:
 * its `If-None-Match` is `*` or lists the tag. If-None-Match compares weakly
 * (RFC 9110, 13.1.2), so `W/"x"` matches `"x"`.
 */
export function clientHolds(header: string | readonly string[] | undefined, tag: string): boolean {
  if (header === undefined) return false;
  const listed = parseIfNoneMatch(header);
  const opaque = tag.startsWith('W/') ? tag.slice(2) : tag;
  return listed === '*' || listed.includes(opaque);
}
