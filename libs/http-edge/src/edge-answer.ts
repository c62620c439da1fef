import { STATUS_CODES } from 'node:http';

/** The field that carries the message of every error body: `{"detail"}` or `{"error"}`. */
export type ErrorField = 'detail' | 'error';

/** An error answered at the edge, before or instead of the application's routes. */
export interface EdgeRejection {
  readonly status: number;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A whole HTTP/1.1 error answer as text, for sockets that have no
 * ServerResponse (parser failures, refused handshakes). It always closes the
 * connection: the bytes after a rejected request cannot be trusted.
 */
export function rawJsonAnswer(
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): string {
  const payload = JSON.stringify(body);
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(payload)}\r\n` +
    extra +
    'Connection: close\r\n\r\n' +
    payload
  );
}
