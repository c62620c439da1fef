import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { HandshakeRequest } from './stream-endpoint';

/*
 * What an open socket keeps of its handshake request for the re-checks of its
 * key, and the endpoint path of a request target.
 */

/**
 * Headers that only carry the WebSocket handshake, never a key: an open socket of an endpoint
 * without `keyHeaders` keeps every header but these.
 */
const HANDSHAKE_ONLY_HEADERS = new Set([
  'connection',
  'upgrade',
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-extensions',
]);

/** Shared by every kept request with no header left, such as a key given in the URL. */
const NO_HEADERS: IncomingHttpHeaders = Object.freeze({});

/** What an open socket keeps of its handshake request for the re-checks of its key. */
export function keptRequest(
  request: IncomingMessage,
  keyHeaders: readonly string[] | undefined,
): HandshakeRequest {
  let headers: IncomingHttpHeaders | undefined;
  if (keyHeaders) {
    for (const name of keyHeaders) {
      const value = request.headers[name];
      if (value !== undefined) (headers ??= {})[name] = value;
    }
  } else {
    for (const [name, value] of Object.entries(request.headers)) {
      if (!HANDSHAKE_ONLY_HEADERS.has(name)) (headers ??= {})[name] = value;
    }
  }
  return { url: request.url, headers: headers ?? NO_HEADERS };
}

export function pathOf(url: string | undefined): string {
  if (!url) return '';
  const queryStart = url.indexOf('?');
  return queryStart < 0 ? url : url.slice(0, queryStart);
}
