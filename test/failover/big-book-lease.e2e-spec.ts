import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { seedWideBook, WIDE_SPORT as SPORT, wideMatchId } from '../odds-passthrough/wide-book';
import { FakeSportsbook } from '../support/fake-sportsbook';
import { type ServiceProcess, startService } from '../support/service-process';
import { waitFor } from '../support/wait-for';
import { type IsolatedStack, isolatedStack } from '../streams/support/isolated-stack';

/** 100,000 markets: the first full load is over a second of CPU, longer than the lease's fence. */
const MATCHES = 2_500;
const MARKETS_PER_MATCH = 40;
const SAMPLED = [0, 1, 625, 1_250, 1_875, 2_498, 2_499];

/** The ROLE=all odds-passthrough under test, polling `book` every second. */
function startBigBookIngest(stack: IsolatedStack, book: FakeSportsbook): Promise<ServiceProcess> {
  return startService('odds-passthrough', '/readyz', {
    ...stack.env,
    ROLE: 'all',
    BOOK_UPSTREAM_URL: book.url,
    BOOK_POLL_MS: '1000',
    LOG_LEVEL: 'warn',
  });
}

/** How many selections `service` serves for the `m`th match of the wide book. */
async function selectionsServed(service: ServiceProcess, key: string, m: number): Promise<number> {
  const answer = await fetch(`${service.url}/v1/book/odds?match=${wideMatchId(m)}`, {
    headers: { 'x-api-key': key },
  });
  return (await answer.text()).split('"market_key"').length - 1;
}

function waitUntilSampledServed(service: ServiceProcess, key: string): Promise<number> {
  return waitFor(
    async () => {
      const counts = await Promise.all(SAMPLED.map((m) => selectionsServed(service, key, m)));
      return counts.every((count) => count === 2 * MARKETS_PER_MATCH);
    },
    { timeoutMs: 90_000, intervalMs: 500, what: 'every sampled match served with all its markets' },
  );
}

/**
 * Two busy processes per core for the whole test: the ingest gets a third of
 * a core or less, as a pod throttled at its CPU limit or a busy CI machine
 * does, so every turn of its event loop takes about three times as long as
 * on an idle machine.
 */
function occupyEveryCore(): ChildProcess[] {
  return Array.from({ length: 2 * availableParallelism() }, () =>
    spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore' }),
  );
}

/**
 * A lone ingest loading a book of 100,000 markets keeps its lease, even on a
 * contended CPU: the answer is parsed, and the load resolved, published and
 * stored, in parts with the event loop free in between, so renewals are
 * never late. Before, the first full load held the loop past the fence, the
 * process fenced itself, started over and fenced again: the book was never
 * served. Later, parsing the market list (tens of megabytes) in one call still did, once
 * the CPU was shared.
 */
describe('odds-passthrough ingest with a book of 100,000 markets', () => {
  const book = new FakeSportsbook();
  let stack: IsolatedStack | undefined;
  let service: ServiceProcess | undefined;
  let busy: ChildProcess[] = [];

  afterAll(async () => {
    for (const child of busy) child.kill('SIGKILL');
    await service?.stop();
    await book.stop();
    await stack?.drop();
  });

  const requireStack = (): IsolatedStack => {
    if (!stack) throw new Error('the stack is not up');
    return stack;
  };
  let key = '';

  it('serves every market without ever losing its lease', async () => {
    stack = await isolatedStack('big_book');
    await book.start();
    seedWideBook(book, MATCHES, MARKETS_PER_MATCH);
    key = await stack.issueKey({ scopes: 'odds', grants: [`book=${SPORT}`] });
    busy = occupyEveryCore();
    service = await startBigBookIngest(stack, book);
    const running = service;
    await waitUntilSampledServed(running, key);
    const metrics = await (await fetch(`${running.url}/metrics`)).text();
    expect(metrics).toMatch(/^ingest_active\{feed="book"\} 1$/m);
    expect(running.output()).not.toMatch(/standby \(/);
  }, 120_000);

  it('keeps its lease when, after a crash, it seeds the stored book and loads it in full again', async () => {
    const crashed = service;
    if (!crashed) throw new Error('the first test did not start the ingest');
    crashed.child.kill('SIGKILL');
    await crashed.exited;
    service = await startBigBookIngest(requireStack(), book);
    const running = service;
    // Two polls since the lease was taken: the seed, the full load and a delta are behind it.
    await waitFor(
      async () => {
        const metrics = await (await fetch(`${running.url}/metrics`)).text();
        const polls = /^upstream_poll_duration_seconds_count\{upstream="book"\} (\d+)$/m.exec(metrics);
        return /^ingest_active\{feed="book"\} 1$/m.test(metrics) && Number(polls?.[1] ?? 0) >= 2;
      },
      { timeoutMs: 90_000, intervalMs: 500, what: 'the restarted ingest active, past its full load' },
    );
    expect(await selectionsServed(running, key, MATCHES - 1)).toBe(2 * MARKETS_PER_MATCH);
    expect(running.output()).not.toMatch(/standby \(/);
  }, 120_000);
});

/**
 * Stops a process for `ms` and lets it run on: the length of the freeze is
 * the fault itself (longer than the lease's fence), not a wait for a state.
 */
async function freeze(service: ServiceProcess, ms: number): Promise<void> {
  service.child.kill('SIGSTOP');
  try {
    await new Promise((resolve) => setTimeout(resolve, ms));
  } finally {
    service.child.kill('SIGCONT');
  }
}

/**
 * The other side of the fence: an ingest frozen past it in the middle of the
 * load (a VM paused, a stop-the-world stall) must fence itself, take the
 * lease again once it runs, load in full again and serve the whole book. It
 * is frozen once half the book is served, when rows are stored far ahead of
 * the frames that announce them: the new term must announce what the last
 * one stored but never published (ADR 004). Before, the rest of the book
 * stayed 404.
 */
describe('odds-passthrough ingest frozen past its fence during the load of 100,000 markets', () => {
  const book = new FakeSportsbook();
  let stack: IsolatedStack | undefined;
  let service: ServiceProcess | undefined;

  afterAll(async () => {
    await service?.stop();
    await book.stop();
    await stack?.drop();
  });

  it('fences, takes the lease again and serves every market', async () => {
    stack = await isolatedStack('big_book_frozen');
    await book.start();
    seedWideBook(book, MATCHES, MARKETS_PER_MATCH);
    const key = await stack.issueKey({ scopes: 'odds', grants: [`book=${SPORT}`] });
    service = await startBigBookIngest(stack, book);
    const running = service;
    // Half the book served: rows are stored well ahead of the frames that announce them.
    await waitFor(async () => (await selectionsServed(running, key, MATCHES / 2)) === 2 * MARKETS_PER_MATCH, {
      timeoutMs: 60_000,
      intervalMs: 20,
      what: 'half the book served, with the load under way',
    });
    await freeze(running, 2_500);
    await waitUntilSampledServed(running, key);
    expect(running.output()).toMatch(/standby \(no renewal within 1500 ms\)/);
    const metrics = await (await fetch(`${running.url}/metrics`)).text();
    expect(metrics).toMatch(/^ingest_active\{feed="book"\} 1$/m);
  }, 120_000);
});
