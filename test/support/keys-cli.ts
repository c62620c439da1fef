import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { childEnv, runServiceEnv } from './test-env';

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout parsed: it must be exactly one JSON object. */
  readonly json: Record<string, unknown>;
}

const ROOT = join(__dirname, '..', '..');

/** Runs `npm run keys -- <args>` as an operator would, against this run's database. */
export function runKeys(args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', 'keys', '--', ...args], {
      cwd: ROOT,
      env: childEnv({ ...runServiceEnv(), ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      let json: Record<string, unknown>;
      try {
        json = JSON.parse(stdout) as Record<string, unknown>;
      } catch {
        reject(new Error(`keys ${args[0]} printed no single JSON object: ${stdout}\n${stderr}`));
        return;
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}

/** Creates an account and issues one key for it; returns both ids and the key. */
export async function issueTestKey(options: {
  sports?: string;
  scopes: string;
  grants?: string[];
  expiresAt?: string;
  /** `--rate RPS[/BURST]`: the key's own REST rate. */
  rate?: string;
}): Promise<{ accountId: string; keyId: string; key: string }> {
  const account = await runKeys(['account:create', '--name', 'test', '--sports', options.sports ?? '']);
  if (account.code !== 0) throw new Error(`account:create failed: ${account.stdout}`);
  const accountId = String(account.json.account);
  const args = ['key:issue', '--account', accountId, '--scopes', options.scopes];
  for (const grant of options.grants ?? []) args.push('--grant', grant);
  if (options.expiresAt) args.push('--expires-at', options.expiresAt);
  if (options.rate) args.push('--rate', options.rate);
  const issued = await runKeys(args);
  if (issued.code !== 0) throw new Error(`key:issue failed: ${issued.stdout}`);
  return { accountId, keyId: String(issued.json.id), key: String(issued.json.key) };
}
