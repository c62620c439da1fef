import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  UpstreamLeague,
  UpstreamMarket,
  UpstreamMatchup,
  UpstreamPeriodLabel,
  UpstreamSport,
} from '../../apps/odds-passthrough/src/upstream';

/** How the fake misbehaves, for fault tests; `paths` limits it to matching request paths. */
export interface SportsbookFault {
  /** Answer with this status and an empty JSON object. */
  readonly status?: number;
  /** Answer 200 with a body of the wrong shape. */
  readonly garbage?: boolean;
  /** Wait this long before answering (a timeout test sets it above the reader's timeout). */
  readonly delayMs?: number;
  readonly paths?: RegExp;
}

interface SportData {
  /** undefined: the label table answers 503 (cold); [] is also cold. */
  labels?: UpstreamPeriodLabel[];
  leagues: UpstreamLeague[];
  matchups: Map<number, UpstreamMatchup>;
  /** By `${matchup_id}|${key}`. */
  markets: Map<string, UpstreamMarket>;
}

type LogEntry =
  | { readonly seq: number; readonly sport: number; readonly market: UpstreamMarket }
  | { readonly seq: number; readonly sport: number; readonly withdrawn: { matchup_id: number; key: string } };

/**
 * A sportsbook that serves exactly the upstream contract (sports, label
 * tables, leagues, matchups, full and delta markets with a cursor, 410 for a
 * forgotten cursor, ETag/If-None-Match), driven by the test: every setter
 * changes what the next request sees, market versions grow by themselves.
 */
export class FakeSportsbook {
  private server?: Server;
  private sports: UpstreamSport[] = [];
  private readonly data = new Map<number, SportData>();
  private log: LogEntry[] = [];
  private seq = 1000;
  /** Cursors at or below this are forgotten and answer 410. */
  private horizon = 0;
  private marketVersion = 1;
  private fault?: SportsbookFault;
  /** Every request path with its query, in order. */
  readonly requests: string[] = [];

  get url(): string {
    const address = this.server?.address() as AddressInfo | undefined;
    if (!address) throw new Error('the fake sportsbook is not started');
    return `http://127.0.0.1:${address.port}`;
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Number of requests whose path matches, for waiting on polls. */
  count(path: RegExp): number {
    return this.requests.filter((request) => path.test(request)).length;
  }

  setSports(sports: UpstreamSport[]): void {
    this.sports = sports;
    for (const sport of sports) this.sport(sport.id);
  }

  /** `undefined` makes the table answer 503, as a cold book does. */
  setLabels(sportId: number, labels: UpstreamPeriodLabel[] | undefined): void {
    this.sport(sportId).labels = labels;
  }

  setLeagues(sportId: number, leagues: UpstreamLeague[]): void {
    this.sport(sportId).leagues = leagues;
  }

  putMatchup(sportId: number, matchup: UpstreamMatchup): void {
    this.sport(sportId).matchups.set(matchup.id, matchup);
  }

  /** The book stops listing a matchup, and so its markets. */
  removeMatchup(sportId: number, matchupId: number): void {
    const sport = this.sport(sportId);
    sport.matchups.delete(matchupId);
    for (const [id, market] of sport.markets) {
      if (market.matchup_id === matchupId) this.withdraw(sportId, sport, id, market);
    }
  }

  /** Lists a new or changed market; its version is bumped past every earlier one. Returns what is served. */
  putMarket(sportId: number, market: UpstreamMarket): UpstreamMarket {
    const served = { ...market, version: ++this.marketVersion };
    this.sport(sportId).markets.set(`${market.matchup_id}|${market.key}`, served);
    this.log.push({ seq: ++this.seq, sport: sportId, market: served });
    return served;
  }

  withdrawMarket(sportId: number, matchupId: number, key: string): void {
    const sport = this.sport(sportId);
    const id = `${matchupId}|${key}`;
    const market = sport.markets.get(id);
    if (market) this.withdraw(sportId, sport, id, market);
  }

  /** Every cursor handed out so far now answers 410. */
  forgetCursors(): void {
    this.horizon = this.seq;
    this.log = [];
  }

  setFault(fault: SportsbookFault | undefined): void {
    this.fault = fault;
  }

  private withdraw(sportId: number, sport: SportData, id: string, market: UpstreamMarket): void {
    sport.markets.delete(id);
    this.log.push({
      seq: ++this.seq,
      sport: sportId,
      withdrawn: { matchup_id: market.matchup_id, key: market.key },
    });
  }

  private sport(sportId: number): SportData {
    let sport = this.data.get(sportId);
    if (!sport) {
      sport = { leagues: [], matchups: new Map(), markets: new Map() };
      this.data.set(sportId, sport);
    }
    return sport;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = `${url.pathname}${url.search}`;
    this.requests.push(path);
    const fault = this.fault;
    if (fault && (!fault.paths || fault.paths.test(path))) {
      if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      if (fault.status) return this.send(req, res, fault.status, {});
      if (fault.garbage) return this.send(req, res, 200, { unexpected: [1, 2, 3] });
    }
    const answer = this.route(url);
    this.send(req, res, answer.status, answer.body, answer.etag);
  }

  private route(url: URL): { status: number; body: unknown; etag?: boolean } {
    if (url.pathname === '/sports') return { status: 200, body: this.sports, etag: true };
    const match = /^\/sports\/(\d+)\/(periods|leagues|matchups|markets)$/.exec(url.pathname);
    const sport = match ? this.data.get(Number(match[1])) : undefined;
    if (!match || !sport) return { status: 404, body: { error: 'not found' } };
    switch (match[2]) {
      case 'periods':
        return sport.labels === undefined
          ? { status: 503, body: {} }
          : { status: 200, body: sport.labels, etag: true };
      case 'leagues':
        return { status: 200, body: sport.leagues, etag: true };
      case 'matchups':
        return { status: 200, body: [...sport.matchups.values()], etag: true };
      default:
        return this.markets(Number(match[1]), sport, url.searchParams.get('since'));
    }
  }

  private markets(
    sportId: number,
    sport: SportData,
    since: string | null,
  ): { status: number; body: unknown; etag?: boolean } {
    const listed = [...sport.markets.values()].filter((market) => sport.matchups.has(market.matchup_id));
    if (since === null) return { status: 200, body: { last: this.seq, markets: listed }, etag: true };
    const cursor = Number(since);
    if (!Number.isInteger(cursor) || cursor < this.horizon)
      return { status: 410, body: { error: 'cursor expired' } };
    const latest = new Map<string, LogEntry>();
    for (const entry of this.log) {
      if (entry.seq <= cursor || entry.sport !== sportId) continue;
      const item = 'market' in entry ? entry.market : entry.withdrawn;
      latest.set(`${item.matchup_id}|${item.key}`, entry);
    }
    const markets: UpstreamMarket[] = [];
    const withdrawn: { matchup_id: number; key: string }[] = [];
    for (const entry of latest.values()) {
      if ('market' in entry) markets.push(entry.market);
      else withdrawn.push(entry.withdrawn);
    }
    return { status: 200, body: { last: this.seq, markets, withdrawn } };
  }

  private send(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, etag = false): void {
    const text = JSON.stringify(body);
    if (etag && status === 200) {
      const tag = `"${createHash('sha1').update(text).digest('hex')}"`;
      res.setHeader('ETag', tag);
      if (req.headers['if-none-match'] === tag) {
        res.writeHead(304).end();
        return;
      }
    }
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(text);
  }
}
