import type { IncomingHttpHeaders } from 'node:http';

/** Why a request to a stream path cannot be upgraded, as its HTTP answer. */
export interface HandshakeProblem {
  readonly status: number;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

const KEY = /^[+/0-9A-Za-z]{22}==$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Whether the request asks for a WebSocket (rather than, say, `h2c`). */
export function asksForWebSocket(headers: IncomingHttpHeaders): boolean {
  return (headers.upgrade ?? '').split(',').some((protocol) => protocol.trim().toLowerCase() === 'websocket');
}

/**
 * What is wrong with a WebSocket opening handshake, checked before the key so
 * a malformed one costs no lookup; undefined when the WebSocket library will
 * accept it.
 */
export function handshakeProblem(request: {
  readonly method?: string;
  readonly headers: IncomingHttpHeaders;
}): HandshakeProblem | undefined {
  const { headers } = request;
  if (request.method !== 'GET') {
    return { status: 405, message: 'a WebSocket handshake must use GET', headers: { Allow: 'GET' } };
  }
  if ((headers.upgrade ?? '').trim().toLowerCase() !== 'websocket') {
    return { status: 400, message: 'invalid WebSocket handshake: Upgrade must be websocket' };
  }
  if (!KEY.test(headers['sec-websocket-key'] ?? '')) {
    return { status: 400, message: 'invalid WebSocket handshake: missing or invalid Sec-WebSocket-Key' };
  }
  const version = headers['sec-websocket-version'];
  if (version !== '13' && version !== '8') {
    return {
      status: 400,
      message: 'unsupported WebSocket version (supported: 13)',
      headers: { 'Sec-WebSocket-Version': '13' },
    };
  }
  const protocols = headers['sec-websocket-protocol'];
  if (protocols !== undefined && !validProtocolList(protocols)) {
    return { status: 400, message: 'invalid WebSocket handshake: malformed Sec-WebSocket-Protocol' };
  }
  return undefined;
}

function validProtocolList(value: string): boolean {
  const names = value.split(',').map((name) => name.trim());
  return names.every((name) => TOKEN.test(name)) && new Set(names).size === names.length;
}
