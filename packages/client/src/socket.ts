import { StreamError } from './errors';

/** The part of the WebSocket API (browser or `ws`) the streams use. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
}

export type SocketFactory = (url: string, headers: Record<string, string>) => Promise<SocketLike>;

type SocketConstructor = new (url: string, options?: unknown) => SocketLike;

export const OPEN = 1;

/**
 * The global WebSocket where there is one (browsers, Node 22+), else the `ws`
 * package, loaded only then. Only `ws` can send headers: with the global one
 * the key travels in the `key` query parameter, which both services accept.
 */
export const defaultSocketFactory: SocketFactory = async (url, headers) => {
  const global = (globalThis as { WebSocket?: SocketConstructor }).WebSocket;
  if (global !== undefined) return new global(withKeyInQuery(url, headers));
  let ws: SocketConstructor;
  try {
    ws = ((await import('ws')) as unknown as { default: SocketConstructor }).default;
  } catch {
    throw new StreamError('no WebSocket implementation: install the ws package');
  }
  return new ws(url, { headers });
};

function withKeyInQuery(url: string, headers: Record<string, string>): string {
  const key = headers['X-API-Key'];
  if (!key) return url;
  const parsed = new URL(url);
  parsed.searchParams.set('key', key);
  return parsed.toString();
}

/** The text of a message event, whatever the implementation delivered. */
export function messageText(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return new TextDecoder().decode(data);
  if (ArrayBuffer.isView(data))
    return new TextDecoder().decode(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  if (Array.isArray(data)) return data.map((part) => messageText(part)).join('');
  return String(data);
}
