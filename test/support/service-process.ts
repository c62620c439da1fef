import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { childEnv, runServiceEnv } from './test-env';
import { waitFor } from './wait-for';

const ROOT = join(__dirname, '..', '..');

export type ServiceName = 'fixtures-live' | 'odds-passthrough' | 'feed-sim';

/** A service running as operators run it: `node dist/apps/<name>/main.js`. */
export interface ServiceProcess {
  readonly child: ChildProcess;
  readonly port: number;
  readonly url: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code and signal once the process has ended. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a built service on a free port (or the PORT / SIM_PORT of `env`)
 * against this run's database and NATS prefix and waits until `readyPath`
 * answers 200.
 */
export async function startService(
  name: ServiceName,
  readyPath: string,
  env: Record<string, string> = {},
  /** Node flags before the script, e.g. `--inspect=127.0.0.1:0` for a test that drives the heap. */
  execArgv: string[] = [],
): Promise<ServiceProcess> {
  const portVariable = name === 'feed-sim' ? 'SIM_PORT' : 'PORT';
  // A port given in env is kept, so a test can restart a service where its clients left it.
  const port = Number(env[portVariable] ?? 0) || (await freePort());
  const child = spawn(process.execPath, [...execArgv, join(ROOT, 'dist', 'apps', name, 'main.js')], {
    cwd: ROOT,
    env: childEnv({ ...runServiceEnv(), [portVariable]: String(port), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`${name} exited early:\n${output}`);
      try {
        return (await fetch(`${url}${readyPath}`)).status === 200;
      } catch {
        return false;
      }
    },
    { timeoutMs: 30_000, intervalMs: 100, what: `${name} to be ready` },
  );
  return {
    child,
    port,
    url,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}
