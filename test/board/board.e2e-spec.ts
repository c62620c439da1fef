import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { testCatalog } from '../fixtures-live/catalog-factory';
import { moneylineWithHomePrice, SOCCER, seedBook, TENNIS } from '../odds-passthrough/book-fixture';
import { cricketState, FakeLivescores, soccerState } from '../support/fake-livescores';
import { FakeSportsbook } from '../support/fake-sportsbook';
import { freePort, type ServiceProcess, startService } from '../support/service-process';
import { storedId } from '../support/stored-id';
import { waitFor } from '../support/wait-for';
import { type IsolatedStack, isolatedStack } from '../streams/support/isolated-stack';

const root = join(__dirname, '..', '..');
const FIXTURES_READY = '/v1/health/ready';
const SEEN_MS = 20_000;

/**
 * The live board in Chromium, built on the reference client, against the real
 * services fed by the test providers: charts (pressure, runs per over, price
 * sparklines), a price flash and a lock, prices of a sport without live scores
 * without a placeholder, connection state and feed health per service, and a
 * restart of the fixtures api survived by resuming. Leaves a screenshot in
 * artifacts/board.png.
 */
describe('live board in Chromium', () => {
  const catalog = testCatalog();
  const provider = new FakeLivescores();
  const book = new FakeSportsbook();
  let stack: IsolatedStack;
  let ingest: ServiceProcess;
  let api: ServiceProcess;
  let odds: ServiceProcess;
  let apiEnv: Record<string, string>;
  let browser: Browser;
  let page: Page;
  let arsChe: number;
  let t20: number;
  let price = 400;

  const card = (matchId: number) => `article.match[data-match-id="${matchId}"]`;

  function soccer(home: number): void {
    provider.push(
      catalog.ids.arsChe.stat_id,
      soccerState({
        score: { home, away: 0 },
        extras: { xg: [1.2, 0.3], pressure: [0.2, 0.5, -0.3, 0.8, -0.6, 0.1], form: ['WWDLW', 'LDWWL'] },
      }),
    );
  }

  function movePrice(): number {
    price += 25;
    book.putMarket(SOCCER, moneylineWithHomePrice(price));
    return price;
  }

  /** The expression runs in the page. */
  async function scoreShown(score: string): Promise<void> {
    const selector = JSON.stringify(`${card(arsChe)} .score`);
    await page.waitForFunction(
      `document.querySelector(${selector})?.textContent === ${JSON.stringify(score)}`,
      undefined,
      {
        timeout: SEEN_MS,
      },
    );
  }

  async function text(selector: string): Promise<string> {
    return (await page.locator(selector).first().textContent()) ?? '';
  }

  beforeAll(async () => {
    execFileSync(process.execPath, [join(root, 'scripts/build-board.js')], { cwd: root, stdio: 'pipe' });
    stack = await isolatedStack('board');
    provider.setCatalog(catalog.sports);
    await provider.start();
    seedBook(book);
    await book.start();
    const fixturesEnv = {
      ...stack.env,
      FIXTURES_UPSTREAM_URL: provider.url,
      FIXTURES_CATALOG_POLL_MS: '1000',
    };
    apiEnv = { ...fixturesEnv, ROLE: 'api', PORT: String(await freePort()), BOARD_DIR: join(root, 'board') };
    [ingest, api, odds] = await Promise.all([
      startService('fixtures-live', FIXTURES_READY, { ...fixturesEnv, ROLE: 'ingest' }),
      startService('fixtures-live', FIXTURES_READY, apiEnv),
      startService('odds-passthrough', '/readyz', {
        ...stack.env,
        BOOK_UPSTREAM_URL: book.url,
        BOOK_POLL_MS: '200',
      }),
    ]);
    const idOf = (providerId: string) =>
      storedId(
        stack.env.DATABASE_URL,
        'SELECT id FROM fixtures.matches WHERE provider_id = $1',
        [providerId],
        'the catalog',
      );
    [arsChe, t20] = await Promise.all([idOf(catalog.ids.arsChe.id), idOf(catalog.ids.t20.id)]);
    await waitFor(() => provider.liveClients > 0, { timeoutMs: 15_000, what: 'the live feed to connect' });
    soccer(1);
    provider.push(
      catalog.ids.t20.stat_id,
      cricketState({
        format: 't20',
        innings: 1,
        scorecard: [
          {
            team: 'India',
            phase: '1st',
            live: true,
            overs: [
              { over: 1, runs: 4, score: '4/0' },
              { over: 2, runs: 11, score: '15/0' },
              { over: 3, runs: 2, score: '17/1' },
              { over: 4, runs: 9, score: '26/1' },
            ],
          },
        ],
      }),
    );
    const key = await stack.issueKey({
      sports: 'soccer,cricket,tennis',
      scopes: 'fixtures,live_scores_statistics,odds',
      grants: [`book=${SOCCER},${TENNIS}`],
    });
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const query = new URLSearchParams({ odds: odds.url, heartbeat_ms: '1000', refresh_ms: '1000' });
    await page.goto(`${api.url}/board/?${query.toString()}`);
    await page.fill('#key', key);
    await page.click('button[type=submit]');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([api?.stop(), ingest?.stop(), odds?.stop()]);
    await Promise.all([provider.stop(), book.stop()]);
    await stack?.drop();
  }, 60_000);

  it('shows both connections and their feed health', async () => {
    for (const service of ['live', 'odds']) {
      await page.waitForSelector(`#conn-${service}[data-state="connected"][data-feed="true"]`, {
        timeout: SEEN_MS,
      });
    }
    expect(await text('#conn-odds .feed')).toBe('feed healthy');
  });

  it('draws the soccer pressure series and the cricket runs per over', async () => {
    await scoreShown('1 - 0');
    expect(await page.locator(`${card(arsChe)} svg.pressure rect`).count()).toBe(6);
    await page.waitForSelector(`${card(t20)} svg.overs rect`, { timeout: SEEN_MS });
    expect(await page.locator(`${card(t20)} svg.overs rect`).count()).toBe(4);
  });

  it('shows prices of a sport without live scores with no placeholder', async () => {
    const tennis = 'article.prices-only:has-text("Sinner")';
    await page.waitForSelector(`${tennis} .price`, { timeout: SEEN_MS });
    expect(await text(tennis)).not.toContain('waiting for the first frame');
    expect(await page.locator(`${tennis} .score`).count()).toBe(0);
  });

  it('flashes a moved price, draws its sparkline, then greys and marks a lock', async () => {
    await page.waitForSelector(`${card(arsChe)} .price`, { timeout: SEEN_MS });
    // The flash lasts about a second: a busy browser may render it between two polls of a
    // selector, so the page itself records every price that flashes.
    const prices = JSON.stringify(`${card(arsChe)} .price`);
    await page.evaluate(`(() => {
      window.flashed = [];
      new MutationObserver(() => {
        for (const node of document.querySelectorAll(${prices} + '.flash')) window.flashed.push(node.textContent);
      }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['class'], childList: true });
    })()`);
    const moved = movePrice();
    const decimal = (moved / 100 + 1).toFixed(2);
    await page.waitForFunction(
      `window.flashed.some((text) => text.includes(${JSON.stringify(decimal)}))`,
      null,
      {
        timeout: SEEN_MS,
      },
    );
    await page.waitForFunction(
      `[...document.querySelectorAll(${prices} + ' svg.spark')].some((spark) => Number(spark.dataset.points) >= 2 && spark.querySelector('polyline'))`,
      null,
      { timeout: SEEN_MS },
    );

    book.putMarket(SOCCER, { ...moneylineWithHomePrice(price), status: 'closed' });
    await page.waitForSelector(`${card(arsChe)} .price.locked .lock`, { timeout: SEEN_MS });
    expect(await page.locator(`${card(arsChe)} .price.locked`).count()).toBe(3);
    const locked = JSON.stringify(`${card(arsChe)} .price.locked`);
    const color = await page.evaluate(`getComputedStyle(document.querySelector(${locked})).color`);
    expect(color).toBe('rgb(154, 161, 173)');
  });

  it('survives a restart of the fixtures api by resuming, with the state it missed', async () => {
    const port = api.port;
    await api.stop();
    await page.waitForSelector('#conn-live[data-state="reconnecting"]', { timeout: SEEN_MS });
    soccer(2);
    api = await startService('fixtures-live', FIXTURES_READY, { ...apiEnv, PORT: String(port) });
    await page.waitForSelector('#conn-live[data-state="resumed"]', { timeout: SEEN_MS });
    await scoreShown('2 - 0');
    mkdirSync(join(root, 'artifacts'), { recursive: true });
    await page.screenshot({ path: join(root, 'artifacts', 'board.png'), fullPage: true });
  }, 60_000);
});
