import type { Socket } from 'node:net';
import { WebSocket } from 'ws';
import type { FrameSink } from './buffered-sender';

/** A server's text frame around `payload`: final, unmasked, header and payload in one buffer. */
export function textFrame(payload: Buffer): Buffer {
  const length = payload.length;
  const headerLength = length < 126 ? 2 : length <= 0xffff ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = 0x81;
  if (length < 126) {
    frame[1] = length;
  } else if (length <= 0xffff) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
    frame.writeUInt32BE(length >>> 0, 6);
  }
  payload.copy(frame, headerLength);
  return frame;
}

const framed = new WeakMap<Buffer, Buffer>();

/** `payload`'s frame, built for its first recipient and reused for every other one. */
export function sharedTextFrame(payload: Buffer): Buffer {
  let frame = framed.get(payload);
  if (!frame) {
    frame = textFrame(payload);
    framed.set(payload, frame);
  }
  return frame;
}

/**
 * Writes each payload's frame, built once, straight to the socket's TCP
 * connection. `ws` would frame the same payload again for every recipient
 * (a new header and a two-buffer write per socket). This is sound because
 * the server never compresses: `ws` then holds no frame back, so whole
 * frames written here and `ws`'s own (pings, close) cannot interleave, and
 * `bufferedAmount` still counts what the TCP connection holds.
 */
export class WireSink implements FrameSink {
  constructor(private readonly socket: WebSocket) {}

  get bufferedAmount(): number {
    return this.socket.bufferedAmount;
  }

  send(data: Buffer, options: { binary: boolean }, callback: (error?: Error) => void): void {
    const tcp = (this.socket as unknown as { _socket?: Socket })._socket;
    if (options.binary || this.socket.readyState !== WebSocket.OPEN || !tcp) {
      // `ws` reports a socket that is no longer open to the callback.
      this.socket.send(data, options, callback);
      return;
    }
    tcp.write(sharedTextFrame(data), (error) => callback(error ?? undefined));
  }
}
