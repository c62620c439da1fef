import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './service-process';
import { waitFor } from './wait-for';

const NATS_SERVER = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

/**
 * A nats-server of the test's own (JetStream on, its own store, a free port)
 * that it may kill and start again on the same port: the machine's shared
 * NATS is never stopped by a test.
 */
export class PrivateNats {
  private child?: ChildProcess;
  private readonly store = mkdtempSync(join(tmpdir(), 'private-nats-'));
  port = 0;

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** Starts the server and resolves once it greets a client (INFO), with that moment. */
  async start(): Promise<number> {
    if (this.port === 0) this.port = await freePort();
    const child = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.store], {
      stdio: 'ignore',
    });
    this.child = child;
    let answeredAt = 0;
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`nats-server exited with ${child.exitCode}`);
        answeredAt = await greets(this.port);
        return answeredAt > 0;
      },
      { timeoutMs: 10_000, intervalMs: 5, what: 'the private nats-server to answer' },
    );
    return answeredAt;
  }

  isRunning(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Stops the server as a crash would (SIGKILL) unless told otherwise. */
  async stop(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    await exited;
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.store, { recursive: true, force: true });
  }
}

/** The time the server's INFO line arrived, or 0 when nothing answers on the port. */
function greets(port: number): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (at: number) => {
      socket.destroy();
      resolve(at);
    };
    socket.setTimeout(500, () => done(0));
    socket.once('error', () => done(0));
    socket.once('data', (chunk: Buffer) => done(chunk.toString().startsWith('INFO') ? Date.now() : 0));
  });
}
