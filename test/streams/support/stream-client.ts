import type { INestApplication } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { waitFor } from '../../support/wait-for';

export type Frame = Record<string, unknown>;

/** Starts listening on a free port (the test boot only initialises) and gives the ws:// base URL. */
export async function listen(app: INestApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  const address = (app.getHttpServer() as { address(): AddressInfo }).address();
  return `ws://127.0.0.1:${address.port}`;
}

/** The HTTP answer to a handshake that was refused (no upgrade). */
export function refusedHandshake(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => {
      socket.close();
      reject(new Error('the handshake was accepted'));
    });
    socket.once('error', () => undefined);
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(body) as unknown }),
      );
    });
  });
}

/** A raw `ws` client that records every frame and how the socket ended. */
export class StreamClient {
  readonly frames: Frame[] = [];
  /** The raw text of every frame, to compare bytes across replicas. */
  readonly texts: string[] = [];
  /** When each frame arrived (Date.now()), to measure delivery delays. */
  readonly receivedAt: number[] = [];
  closeCode?: number;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      const text = data.toString();
      this.texts.push(text);
      this.receivedAt.push(Date.now());
      this.frames.push(JSON.parse(text) as Frame);
    });
    socket.on('close', (code) => (this.closeCode = code));
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<StreamClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers });
      const client = new StreamClient(socket);
      socket.once('open', () => resolve(client));
      socket.once('error', reject);
    });
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Waits for the first frame after index `from` that matches, and returns it. */
  async next(match: (frame: Frame) => boolean, { from = 0, timeoutMs = 10_000, what = 'a frame' } = {}) {
    let found: Frame | undefined;
    await waitFor(() => (found = this.frames.slice(from).find(match)) !== undefined, { timeoutMs, what });
    return found as Frame;
  }

  /**
   * Sends `message` every 250 ms until a frame matches: a match an api
   * replica has not loaded yet is unknown to it, so a subscribe is asked again.
   */
  async sendUntil(message: unknown, match: (frame: Frame) => boolean, what: string): Promise<void> {
    await waitFor(
      () => {
        if (this.frames.some(match)) return true;
        this.send(message);
        return false;
      },
      { timeoutMs: 20_000, intervalMs: 250, what },
    );
  }

  async closed(timeoutMs = 10_000): Promise<number> {
    await waitFor(() => this.closeCode !== undefined, { timeoutMs, what: 'the socket to close' });
    return this.closeCode as number;
  }

  close(): void {
    this.socket.close();
  }
}
