import { type ChildProcess, spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { waitFor } from '../support/wait-for';

const SCRIPT = join(__dirname, '..', '..', 'scripts', 'ws-tail.js');

/**
 * `scripts/ws-tail.js --reconnect` against a stand-in stream: it prints
 * frames, comes back after a 1001 and resubscribes from the newest `seq` it
 * printed, and flags a frame whose `prev_seq` skips one.
 */
describe('scripts/ws-tail.js --reconnect', () => {
  let server: WebSocketServer;
  let tail: ChildProcess | undefined;

  afterEach(async () => {
    tail?.kill('SIGKILL');
    await new Promise((resolve) => server.close(resolve));
  });

  it('resumes after the server closes the socket, and flags a gap', async () => {
    server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const received: string[] = [];
    let connections = 0;
    server.on('connection', (socket) => {
      connections += 1;
      const connection = connections;
      socket.on('message', (data: Buffer) => {
        received.push(data.toString());
        if (connection === 1) {
          socket.send(JSON.stringify({ op: 'snapshot', seq: 10, prev_seq: null, data: { match_id: 7 } }));
          socket.send(JSON.stringify({ op: 'update', seq: 12, prev_seq: 10, data: { match_id: 7 } }));
          socket.close(1001, 'going away');
        } else {
          socket.send(JSON.stringify({ op: 'update', seq: 20, prev_seq: 15, data: { match_id: 7 } }));
        }
      });
    });
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/v1/stream`;
    const child = spawn(process.execPath, [
      SCRIPT,
      '--reconnect',
      url,
      '{"action":"subscribe","match_id":7}',
    ]);
    tail = child;
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));

    await waitFor(() => stdout.includes('"seq":20'), {
      timeoutMs: 10_000,
      what: 'the frame after the reconnect',
    });
    // stdout and stderr are separate pipes: the warning written after the
    // frame can reach this process after it, so it is waited for, not assumed.
    await waitFor(() => stderr.includes('# gap'), { timeoutMs: 10_000, what: 'the gap warning' });
    expect(received.map((text) => JSON.parse(text) as unknown)).toEqual([
      { action: 'subscribe', match_id: 7 },
      { action: 'subscribe', match_id: 7, resume_after: 12 },
    ]);
    expect(stdout.trim().split('\n')).toHaveLength(3);
    expect(stderr).toContain('closed: 1001 going away');
    expect(stderr).toContain('# gap in match 7: held seq 12, frame prev_seq 15');
  });
});
