import type { IncomingHttpHeaders } from 'node:http';
import { asksForWebSocket, handshakeProblem } from './handshake-check';

const VALID: IncomingHttpHeaders = {
  upgrade: 'websocket',
  connection: 'Upgrade',
  'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
  'sec-websocket-version': '13',
};

describe('handshake checks', () => {
  it('accepts what a WebSocket client sends', () => {
    expect(handshakeProblem({ method: 'GET', headers: VALID })).toBeUndefined();
    expect(
      handshakeProblem({ method: 'GET', headers: { ...VALID, 'sec-websocket-protocol': 'a, b' } }),
    ).toBeUndefined();
  });

  it('refuses a method other than GET with 405', () => {
    expect(handshakeProblem({ method: 'POST', headers: VALID })).toMatchObject({
      status: 405,
      headers: { Allow: 'GET' },
    });
  });

  it.each([
    ['no key', { 'sec-websocket-key': undefined }],
    ['a short key', { 'sec-websocket-key': 'short' }],
    ['another upgrade', { upgrade: 'websocket, h2c' }],
    ['a malformed subprotocol list', { 'sec-websocket-protocol': 'a,,b' }],
    ['a repeated subprotocol', { 'sec-websocket-protocol': 'a, a' }],
  ])('refuses %s with 400', (_name, change) => {
    expect(handshakeProblem({ method: 'GET', headers: { ...VALID, ...change } })?.status).toBe(400);
  });

  it('names the supported version when the client asks for another', () => {
    expect(
      handshakeProblem({ method: 'GET', headers: { ...VALID, 'sec-websocket-version': '99' } }),
    ).toMatchObject({
      status: 400,
      headers: { 'Sec-WebSocket-Version': '13' },
    });
  });

  it('tells a WebSocket upgrade from another protocol', () => {
    expect(asksForWebSocket({ upgrade: 'WebSocket' })).toBe(true);
    expect(asksForWebSocket({ upgrade: 'h2c' })).toBe(false);
    expect(asksForWebSocket({})).toBe(false);
  });
});
