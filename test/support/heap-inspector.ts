import WebSocket from 'ws';
import type { ServiceProcess } from './service-process';
import { waitFor } from './wait-for';

/**
 * Drives a service started with `--inspect=127.0.0.1:0` through the V8
 * inspector protocol. A full collection before reading RSS separates what the
 * process keeps from garbage V8 has not collected yet, which otherwise moves
 * RSS by tens of MB with GC timing alone.
 */
export class HeapInspector {
  private nextId = 1;

  private constructor(private readonly socket: WebSocket) {}

  static async attach(service: ServiceProcess): Promise<HeapInspector> {
    let url = '';
    await waitFor(
      () => {
        url = /Debugger listening on (ws:\/\/\S+)/.exec(service.output())?.[1] ?? '';
        return url !== '';
      },
      { timeoutMs: 10_000, what: 'the inspector URL (start the service with --inspect=127.0.0.1:0)' },
    );
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new HeapInspector(socket);
  }

  /** A full, compacting collection; resolves once V8 has finished it. */
  collectGarbage(): Promise<void> {
    return this.call('HeapProfiler.collectGarbage');
  }

  close(): void {
    this.socket.terminate();
  }

  private call(method: string): Promise<void> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const onMessage = (data: Buffer) => {
        const reply = JSON.parse(data.toString()) as { id?: number; error?: { message: string } };
        if (reply.id !== id) return;
        this.socket.off('message', onMessage);
        if (reply.error) reject(new Error(`${method}: ${reply.error.message}`));
        else resolve();
      };
      this.socket.on('message', onMessage);
      this.socket.send(JSON.stringify({ id, method }));
    });
  }
}
