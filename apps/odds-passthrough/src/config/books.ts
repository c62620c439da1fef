import type { BookConfig } from '../book/book-read-port';

/** A configured sportsbook: how it is served and where its upstream lives. */
export interface BookSource extends BookConfig {
  readonly upstreamUrl: string;
}

const NAME = /^[a-z0-9_-]+$/;
const PREFIX = /^(\/[A-Za-z0-9_-]+)+$/;

/**
 * The books this process serves. `BOOKS` (a JSON array of
 * `{name, prefix, grant, upstream_url}`) lists several; without it there is
 * one book, `book` at `/v1/book` with grant `book`, read from
 * BOOK_UPSTREAM_URL. Errors name the entry and field, never a value.
 */
export function resolveBooks(booksJson: string, defaultUpstreamUrl: string): BookSource[] {
  if (booksJson.trim() === '') {
    return [{ name: 'book', prefix: '/v1/book', grant: 'book', upstreamUrl: defaultUpstreamUrl }];
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(booksJson);
  } catch {
    throw new Error('BOOKS must be a JSON array');
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw new Error('BOOKS must be a non-empty JSON array');
  const books = parsed.map((entry: unknown, index) => parseBook(entry, index, defaultUpstreamUrl));
  for (const field of ['name', 'prefix'] as const) {
    const values = books.map((book) => book[field]);
    if (new Set(values).size !== values.length) throw new Error(`BOOKS: every ${field} must be unique`);
  }
  return books;
}

function parseBook(entry: unknown, index: number, defaultUpstreamUrl: string): BookSource {
  if (typeof entry !== 'object' || entry === null) throw new Error(`BOOKS[${index}] must be an object`);
  const record = entry as Record<string, unknown>;
  const text = (field: string, pattern?: RegExp): string => {
    const value = record[field];
    if (typeof value !== 'string' || value.length === 0 || (pattern && !pattern.test(value))) {
      throw new Error(`BOOKS[${index}].${field} is missing or malformed`);
    }
    return value;
  };
  const name = text('name', NAME);
  const upstream = record.upstream_url === undefined ? defaultUpstreamUrl : text('upstream_url');
  if (!/^https?:\/\//.test(upstream)) throw new Error(`BOOKS[${index}].upstream_url must be an http(s) URL`);
  return {
    name,
    prefix: record.prefix === undefined ? `/v1/${name}` : text('prefix', PREFIX),
    grant: record.grant === undefined ? name : text('grant', NAME),
    upstreamUrl: upstream,
  };
}
