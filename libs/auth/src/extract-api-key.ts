import type { IncomingHttpHeaders } from 'node:http';

export const API_KEY_HEADER = 'x-api-key';
export const API_KEY_QUERY_PARAMETER = 'key';

/** A query value as Express or URLSearchParams may hand it over. */
export type QueryValue = string | readonly unknown[] | Record<string, unknown> | undefined;

/**
 * The key a request presents: the `X-API-Key` header, else the `key` query
 * parameter (the first one when repeated). Empty values count as absent.
 */
export function extractApiKey(headers: IncomingHttpHeaders, queryKey: QueryValue): string | undefined {
  const header = firstString(headers[API_KEY_HEADER]);
  if (header) return header;
  return firstString(queryKey);
}

/** The `key` query parameter of a raw request URL, as the WebSocket handshake sees it. */
export function queryKeyFromUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return undefined;
  return new URLSearchParams(url.slice(queryStart + 1)).get(API_KEY_QUERY_PARAMETER) ?? undefined;
}

function firstString(value: unknown): string | undefined {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  if (typeof first !== 'string') return undefined;
  const trimmed = first.trim();
  return trimmed.length > 0 ? trimmed : undefined;
}
