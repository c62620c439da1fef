import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import WebSocket from 'ws';
import { waitFor } from '../support/wait-for';

/**
 * The newcomer's path: `npm start` with no DATABASE_URL and no NATS_URL, so
 * the launcher brings its own embedded PostgreSQL and NATS, then live data
 * must move on both services' REST APIs, both streams and the board.
 */
const root = join(__dirname, '..', '..');
const START_TIMEOUT_MS = 240_000;
const LIVE_TIMEOUT_MS = 30_000;

interface Demo {
  readonly process: ChildProcess;
  readonly fixtures: string;
  readonly odds: string;
  readonly fullKey: string;
  readonly limitedKey: string;
  /** Everything npm start has printed so far. */
  readonly output: () => string;
}

function freePort(): Promise<number> {
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

async function demoEnv(dataDir: string): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.toLowerCase().startsWith('npm_') || name.startsWith('TEST_')) delete env[name];
  }
  delete env.DATABASE_URL;
  delete env.NATS_URL;
  delete env.NATS_SUBJECT_PREFIX;
  return {
    ...env,
    DEMO_DATA_DIR: dataDir,
    SIM_PORT: String(await freePort()),
    DEMO_FIXTURES_PORT: String(await freePort()),
    DEMO_ODDS_PORT: String(await freePort()),
  };
}

async function startDemo(env: NodeJS.ProcessEnv): Promise<Demo> {
  const child = spawn('npm', ['start'], {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitFor(() => /limited key:\s+sk_/.test(output) || child.exitCode !== null, {
    timeoutMs: START_TIMEOUT_MS,
    intervalMs: 200,
    what: 'the demo banner',
  });
  if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}:\n${output}`);
  const pick = (pattern: RegExp): string => {
    const match = pattern.exec(output);
    if (!match) throw new Error(`the banner lacks ${String(pattern)}:\n${output}`);
    return match[1];
  };
  return {
    process: child,
    fixtures: pick(/fixtures-live\s+(http:\/\/[^\s]+)\/v1\b/),
    odds: pick(/odds-passthrough\s+(http:\/\/[^\s]+)\/v1\/book\//),
    fullKey: pick(/full-access key:\s+(sk_[A-Za-z0-9_-]+)/),
    limitedKey: pick(/limited key:\s+(sk_[A-Za-z0-9_-]+)/),
    output: () => output,
  };
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Ctrl-C as a terminal sends it: to the whole process group. Resolves once
 * every process of the group (npm, the launcher, services, databases) is gone;
 * false when something had to be killed after 30 s.
 */
async function stopDemo(demo: Demo): Promise<boolean> {
  const pgid = demo.process.pid as number;
  if (!groupAlive(pgid)) return true;
  process.kill(-pgid, 'SIGINT');
  try {
    await waitFor(() => !groupAlive(pgid), { timeoutMs: 30_000, intervalMs: 100, what: 'the demo to stop' });
    return true;
  } catch {
    process.kill(-pgid, 'SIGKILL');
    return false;
  }
}

async function getJson<T>(url: string, key: string): Promise<{ status: number; body: T }> {
  const response = await fetch(url, { headers: { 'X-API-Key': key } });
  return { status: response.status, body: (await response.json()) as T };
}

interface Sport {
  id: number;
  name: string;
}
interface CatalogMatch {
  id: number;
  home_team: string;
  away_team: string;
}

async function liveMatches(demo: Demo): Promise<CatalogMatch[]> {
  const { body: sports } = await getJson<Sport[]>(`${demo.fixtures}/v1/sports`, demo.fullKey);
  const all: CatalogMatch[] = [];
  for (const sport of sports) {
    const { body } = await getJson<CatalogMatch[]>(
      `${demo.fixtures}/v1/matches/live?sport=${sport.id}`,
      demo.fullKey,
    );
    all.push(...body);
  }
  return all;
}

/** The live matches that already have a snapshot, with it. */
async function liveSnapshots(demo: Demo): Promise<Map<number, string>> {
  const snapshots = new Map<number, string>();
  for (const match of await liveMatches(demo)) {
    const live = await fetch(`${demo.fixtures}/v1/matches/${match.id}/live`, {
      headers: { 'X-API-Key': demo.fullKey },
    });
    if (live.status === 200) snapshots.set(match.id, await live.text());
  }
  return snapshots;
}

function collectFrames(url: string, messages: object[]): { frames: unknown[]; socket: WebSocket } {
  const frames: unknown[] = [];
  const socket = new WebSocket(url);
  socket.on('open', () => messages.forEach((message) => socket.send(JSON.stringify(message))));
  socket.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString())));
  return { frames, socket };
}

describe('npm start (the one-command demo)', () => {
  let dataDir: string;
  let demo: Demo;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'demo-'));
    // The embedded PostgreSQL runs as the postgres user when we are root: it must reach its folder.
    chmodSync(dataDir, 0o755);
    demo = await startDemo(await demoEnv(dataDir));
  }, START_TIMEOUT_MS + 10_000);

  afterAll(async () => {
    if (demo) await stopDemo(demo);
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('prints the URLs, both keys and commands to paste', () => {
    expect(demo.output()).toMatch(/curl -H 'X-API-Key: sk_/);
    expect(demo.output()).toMatch(/\/v1\/stream\?key=sk_/);
    expect(demo.output()).toMatch(/\/v1\/book\/data\?key=sk_/);
    expect(demo.output()).toMatch(/\/board/);
  });

  it('shows live scores changing over REST', async () => {
    let first = new Map<number, string>();
    await waitFor(async () => (first = await liveSnapshots(demo)).size > 0, {
      timeoutMs: LIVE_TIMEOUT_MS,
      intervalMs: 500,
      what: 'a live match with a snapshot',
    });
    // Any one match may be at a break; while another plays, its snapshot changes every second or two.
    await waitFor(
      async () => {
        const next = await liveSnapshots(demo);
        return [...first].some(([id, body]) => next.has(id) && next.get(id) !== body);
      },
      { timeoutMs: LIVE_TIMEOUT_MS, intervalMs: 500, what: 'a live snapshot to change' },
    );
  }, 70_000);

  it('shows prices over REST and refuses odds to the limited key', async () => {
    let matches: Array<{ id: number }> = [];
    await waitFor(
      async () =>
        (matches = (await getJson<Array<{ id: number }>>(`${demo.odds}/v1/book/matches`, demo.fullKey)).body)
          .length > 0,
      { timeoutMs: LIVE_TIMEOUT_MS, intervalMs: 500, what: 'sportsbook matches' },
    );
    const odds = await getJson<{ selections: unknown[]; ts: number }>(
      `${demo.odds}/v1/book/odds?match=${matches[0].id}`,
      demo.fullKey,
    );
    expect(odds.status).toBe(200);
    expect(typeof odds.body.ts).toBe('number');
    const limited = await getJson<{ error: string }>(`${demo.odds}/v1/book/sports`, demo.limitedKey);
    expect(limited).toEqual({ status: 403, body: { error: 'missing required scope: odds' } });
  }, 70_000);

  it('streams live-score updates and price updates', async () => {
    const matches = [...(await liveSnapshots(demo)).keys()];
    const live = collectFrames(
      `${demo.fixtures.replace('http', 'ws')}/v1/stream?key=${demo.fullKey}`,
      matches.map((matchId) => ({ action: 'subscribe', match_id: matchId })),
    );
    const prices = collectFrames(`${demo.odds.replace('http', 'ws')}/v1/book/data?key=${demo.fullKey}`, [
      { action: 'subscribe_all' },
    ]);
    try {
      await waitFor(() => live.frames.some((frame) => (frame as { op?: string }).op === 'update'), {
        timeoutMs: LIVE_TIMEOUT_MS,
        what: 'a live-score update frame',
      });
      expect((live.frames[0] as { op: string }).op).toBe('snapshot');
      await waitFor(() => prices.frames.some((frame) => (frame as { type?: string }).type === 'update'), {
        timeoutMs: LIVE_TIMEOUT_MS,
        what: 'a price update frame',
      });
    } finally {
      live.socket.close();
      prices.socket.close();
    }
  }, 70_000);

  it('renders the board and shows a score or a price changing', async () => {
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const page = await browser.newPage();
      await page.goto(`${demo.fixtures}/board/?odds=${encodeURIComponent(demo.odds)}`);
      await page.fill('#key', demo.fullKey);
      await page.click('button[type=submit]');
      await page.waitForSelector('.match .score', { timeout: LIVE_TIMEOUT_MS });
      const read = async (): Promise<string[]> => [
        ...(await page.locator('.match .score').allTextContents()),
        ...(await page.locator('.match .prices').allTextContents()),
      ];
      // The expression runs in the page: a score other than the placeholder means a frame arrived.
      await page.waitForFunction(
        "[...document.querySelectorAll('.match .score')].some((node) => node.textContent !== '–')",
        undefined,
        { timeout: LIVE_TIMEOUT_MS },
      );
      const before = (await read()).join('\n');
      await waitFor(async () => (await read()).join('\n') !== before, {
        timeoutMs: LIVE_TIMEOUT_MS,
        intervalMs: 250,
        what: 'a score or a price to change on the board',
      });
    } finally {
      await browser.close();
    }
  }, 90_000);

  it(
    'stops cleanly on Ctrl-C and a second start reuses the data',
    async () => {
      const firstState = readFileSync(join(dataDir, 'demo.json'), 'utf8');
      const previousKey = demo.fullKey;
      expect(await stopDemo(demo)).toBe(true);
      expect(demo.output()).not.toMatch(/stopped unexpectedly|cleanup failed/);
      demo = await startDemo(await demoEnv(dataDir));
      const secondState = JSON.parse(readFileSync(join(dataDir, 'demo.json'), 'utf8')) as {
        fullAccount: string;
      };
      expect(secondState.fullAccount).toBe((JSON.parse(firstState) as { fullAccount: string }).fullAccount);
      const sports = await getJson<Sport[]>(`${demo.fixtures}/v1/sports`, demo.fullKey);
      expect(sports.status).toBe(200);
      expect(sports.body.length).toBeGreaterThan(0);
      // Keys are shown once: each start issues new ones and retires the previous start's.
      expect((await getJson(`${demo.fixtures}/v1/sports`, previousKey)).status).toBe(401);
    },
    START_TIMEOUT_MS + 60_000,
  );
});
