import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { seedWideBook, WIDE_SPORT as SPORT, wideTotal } from '../odds-passthrough/wide-book';
import { FakeSportsbook } from '../support/fake-sportsbook';
import { HeapInspector } from '../support/heap-inspector';
import { type ServiceProcess, startService } from '../support/service-process';
import { waitFor } from '../support/wait-for';
import { type IsolatedStack, isolatedStack } from '../streams/support/isolated-stack';

const MATCHES = 100;
const MARKETS_PER_MATCH = 10;
/** Two-way markets, so 100 market changes every 100 ms are 2,000 selection changes a second. */
const MARKETS_PER_TICK = 100;
const CLIENTS = 20;
const READING_MS = 8_000;
/** Loopback socket buffers take the first ~15 s of a paused client's data before the process holds any. */
const SLOW_MS = 30_000;

/**
 * Twenty `subscribe_all` clients of one odds-passthrough process read for a
 * while, then stop reading (their sockets paused, as a desk whose process
 * hangs) while 2,000 selection changes a second keep flowing. What the
 * process may hold for them is bounded: its RSS, read after a full collection
 * at the end of each phase, grows by at most 30 MB over the slow phase.
 */
describe('odds-passthrough with clients that stop reading', () => {
  const book = new FakeSportsbook();
  const sockets: WebSocket[] = [];
  let stack: IsolatedStack | undefined;
  let service: ServiceProcess | undefined;
  let inspector: HeapInspector | undefined;
  let ticker: NodeJS.Timeout | undefined;

  afterAll(async () => {
    clearInterval(ticker);
    for (const socket of sockets) socket.terminate();
    inspector?.close();
    await service?.stop();
    await book.stop();
    await stack?.drop();
  });

  it('grows RSS by at most 30 MB while 20 clients read nothing', async () => {
    stack = await isolatedStack('slow_consumers');
    await book.start();
    seedWideBook(book, MATCHES, MARKETS_PER_MATCH);
    const key = await stack.issueKey({ scopes: 'odds', grants: [`book=${SPORT}`] });
    service = await startService(
      'odds-passthrough',
      '/readyz',
      { ...stack.env, ROLE: 'all', BOOK_UPSTREAM_URL: book.url, BOOK_POLL_MS: '100', LOG_LEVEL: 'warn' },
      ['--inspect=127.0.0.1:0'],
    );
    const pid = service.child.pid as number;
    inspector = await HeapInspector.attach(service);

    const snapshots: number[] = Array.from({ length: CLIENTS }, () => 0);
    const closes: number[] = [];
    const url = `${service.url.replace('http', 'ws')}/v1/book/data?key=${key}`;
    for (let c = 0; c < CLIENTS; c++) {
      const socket = new WebSocket(url);
      sockets.push(socket);
      socket.on('message', (data: Buffer) => {
        if (data.includes('"type":"snapshot"')) snapshots[c] += 1;
      });
      socket.on('close', (code) => closes.push(code));
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
      });
    }
    await waitFor(
      () => {
        sockets.forEach((socket, c) => {
          if (snapshots[c] === 0) socket.send(JSON.stringify({ action: 'subscribe_all' }));
        });
        return snapshots.every((count) => count >= MATCHES);
      },
      { timeoutMs: 30_000, intervalMs: 1_000, what: 'every client to hold a snapshot of every match' },
    );

    let received = 0;
    for (const socket of sockets) socket.on('message', () => (received += 1));
    let price = 1000;
    let cursor = 0;
    ticker = setInterval(() => {
      for (let i = 0; i < MARKETS_PER_TICK; i++, cursor++) {
        book.putMarket(
          SPORT,
          wideTotal(Math.floor(cursor / MARKETS_PER_MATCH) % MATCHES, cursor % MARKETS_PER_MATCH, price++),
        );
      }
    }, 100);

    const reading = await sample(pid, service.url, READING_MS);
    const readingKeptMb = await keptRssMb(pid, inspector);
    for (const socket of sockets) socket.pause();
    const slow = await sample(pid, service.url, SLOW_MS);
    const slowKeptMb = await keptRssMb(pid, inspector);
    const droppedSlow = await closedSlow(service.url);

    // Replaced prices become garbage in old space about a second after they arrive, and V8 lets that
    // garbage reach about four times the live heap before collecting it: sampled peaks move by tens
    // of MB with GC timing alone. What the process keeps is what a full collection leaves.
    const retainedGrowth = slowKeptMb - readingKeptMb;
    const peakGrowth = Math.max(...slow.rssMb) - Math.max(...reading.rssMb);
    process.stdout.write(
      `slow-consumers ${JSON.stringify({
        clients: CLIENTS,
        readingMs: READING_MS,
        slowMs: SLOW_MS,
        readingRssMb: reading.rssMb,
        slowRssMb: slow.rssMb,
        keptRssMb: [readingKeptMb, slowKeptMb],
        heldKiB: slow.heldBytes.map((bytes) => Math.round(bytes / 1024)),
        retainedGrowthMb: retainedGrowth,
        peakGrowthMb: peakGrowth,
        droppedSlow,
      })}\n`,
    );
    // What slow clients pin stays within the process-wide budget (4 MiB) and what one check interval adds.
    expect(Math.max(...slow.heldBytes)).toBeLessThanOrEqual(5 * 1024 * 1024);
    expect(retainedGrowth).toBeLessThanOrEqual(30);
    // Whatever the process did about the slow clients, it told them why.
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);

    // Reading again: the clients let go see their sockets end, every other one catches up on the same socket.
    for (const socket of sockets) socket.resume();
    await waitFor(() => closes.length === droppedSlow, {
      timeoutMs: 30_000,
      what: `${droppedSlow} slow clients to see their sockets closed`,
    });
    const receivedBefore = received;
    await waitFor(() => received >= receivedBefore + (CLIENTS - droppedSlow) * 10, {
      timeoutMs: 30_000,
      what: 'the clients kept to receive updates again',
    });
    clearInterval(ticker);
    expect(sockets.filter((socket) => socket.readyState === WebSocket.OPEN)).toHaveLength(
      CLIENTS - droppedSlow,
    );
  }, 120_000);
});

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

/** RSS in MB right after a full collection: the lowest of a few readings while V8 returns freed pages. */
async function keptRssMb(pid: number, inspector: HeapInspector): Promise<number> {
  await inspector.collectGarbage();
  const readings: number[] = [];
  for (let i = 0; i < 4; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    readings.push(rssMb(pid));
  }
  return Math.min(...readings);
}

/** RSS in MB and the bytes held for stream clients, once a second for `ms`. */
async function sample(
  pid: number,
  url: string,
  ms: number,
): Promise<{ rssMb: number[]; heldBytes: number[] }> {
  const rss: number[] = [];
  const heldBytes: number[] = [];
  const end = Date.now() + ms;
  while (Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    rss.push(rssMb(pid));
    const metrics = await (await fetch(`${url}/metrics`)).text();
    heldBytes.push(Number(/^ws_held_bytes\{endpoint="\/v1\/book\/data"\} (\d+)$/m.exec(metrics)?.[1] ?? NaN));
  }
  return { rssMb: rss, heldBytes };
}

async function closedSlow(url: string): Promise<number> {
  const metrics = await (await fetch(`${url}/metrics`)).text();
  return Number(/^ws_closed_slow_total\{endpoint="\/v1\/book\/data"\} (\d+)$/m.exec(metrics)?.[1] ?? 0);
}
