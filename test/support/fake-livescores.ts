import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';

/*
 * A fake of the livescores provider, speaking its documented API:
 * the HTTP catalog, the `/live` WebSocket (current states on connect, then one
 * whole state per change), `GET /live/{stat_id}` and the kit endpoint. Tests
 * drive it: set the catalog, push states, drop the stream, make paths answer
 * 5xx, garbage or slowly.
 */

export interface FakeSport {
  id: string;
  key: string;
  name: string;
}

export interface FakeLeague {
  id: string;
  name: string;
}

export interface FakeTeam {
  id: string;
  name: string;
}

export interface FakeMatch {
  id: string;
  stat_id: string;
  live_id: string | null;
  home_team_id: string;
  away_team_id: string;
  start_time: string;
  status: 'scheduled' | 'in_play' | 'close_of_play' | 'finished' | 'suspended' | 'postponed' | 'cancelled';
  format: 'test' | 't20' | 'one_day' | 'the_hundred' | null;
}

export interface FakeLeagueData {
  league: FakeLeague;
  teams: FakeTeam[];
  matches: FakeMatch[];
}

export interface FakeSportData {
  sport: FakeSport;
  leagues: FakeLeagueData[];
}

export interface LiveEnvelope {
  stat_id: string;
  seq: number;
  sent_at: string;
  state: object;
}

/** How a path misbehaves until the fault is cleared. */
export interface Fault {
  /** Answer with this HTTP status (and a small text body) instead of the real answer. */
  status?: number;
  /** Answer 200 with this raw body instead of the real one. */
  body?: string;
  /** Wait this long before answering (real answer unless status/body say otherwise). */
  delayMs?: number;
}

interface KitSetting {
  url: string | null;
  delayMs: number;
}

export class FakeLivescores {
  private server?: Server;
  private readonly wss = new WebSocketServer({ noServer: true });
  private catalog: FakeSportData[] = [];
  private readonly latest = new Map<string, LiveEnvelope>();
  private readonly seqs = new Map<string, number>();
  private readonly faults = new Map<string, Fault>();
  private readonly kits = new Map<string, KitSetting>();
  private readonly hits = new Map<string, number>();
  private boundPort = 0;
  private liveRefused = false;
  /** Every live connection ever accepted. */
  connectionsAccepted = 0;

  async start(port = 0): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (new URL(req.url ?? '/', 'http://fake').pathname !== '/live' || this.liveRefused) {
        socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.onLive(ws));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port || this.boundPort, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (address && typeof address === 'object') this.boundPort = address.port;
    this.server = server;
  }

  /** Closes the port and every connection; `start()` again reopens the same port. */
  async stop(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get url(): string {
    return `http://127.0.0.1:${this.boundPort}`;
  }

  get port(): number {
    return this.boundPort;
  }

  /** Live connections open right now. */
  get liveClients(): number {
    return this.wss.clients.size;
  }

  setCatalog(catalog: FakeSportData[]): void {
    this.catalog = catalog;
  }

  getCatalog(): FakeSportData[] {
    return this.catalog;
  }

  /** Changes one match in place (status, start time...) for the next poll. */
  updateMatch(matchId: string, change: Partial<FakeMatch>): void {
    for (const sport of this.catalog) {
      for (const league of sport.leagues) {
        const match = league.matches.find((candidate) => candidate.id === matchId);
        if (match) Object.assign(match, change);
      }
    }
  }

  /** Requests served for a path so far (after faults), e.g. `/sports`. */
  hitsOf(path: string): number {
    return this.hits.get(path) ?? 0;
  }

  /** Makes `path` (exact, or a prefix ending in `*`) misbehave; `null` clears it. */
  setFault(path: string, fault: Fault | null): void {
    if (fault) this.faults.set(path, fault);
    else this.faults.delete(path);
  }

  /** The kit of a team: a URL (200) or null (404), answered after `delayMs`. */
  setKit(teamId: string, url: string | null, delayMs = 0): void {
    this.kits.set(teamId, { url, delayMs });
  }

  /**
   * Sends a state to every live client as the next message for `statId`
   * (seq grows by one unless given) and keeps it as the current state, which
   * every new connection receives first (a given lower seq models a provider
   * that restarted its counters).
   */
  push(statId: string, state: object, options: { seq?: number; sentAt?: string } = {}): LiveEnvelope {
    const seq = options.seq ?? (this.seqs.get(statId) ?? 0) + 1;
    this.seqs.set(statId, Math.max(seq, this.seqs.get(statId) ?? 0));
    const envelope: LiveEnvelope = {
      stat_id: statId,
      seq,
      sent_at: options.sentAt ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      state,
    };
    this.latest.set(statId, envelope);
    this.broadcast(JSON.stringify(envelope));
    return envelope;
  }

  /** Sends raw text to every live client (garbage, wrong shapes). */
  sendRaw(text: string): void {
    this.broadcast(text);
  }

  /** Drops every live connection, as a provider hiccup would. */
  dropStream(): void {
    for (const client of this.wss.clients) client.terminate();
  }

  /** While true, `/live` upgrades are refused with 503. */
  refuseLive(refuse: boolean): void {
    this.liveRefused = refuse;
  }

  private broadcast(text: string): void {
    for (const client of this.wss.clients) if (client.readyState === WebSocket.OPEN) client.send(text);
  }

  private onLive(ws: WebSocket): void {
    this.connectionsAccepted++;
    ws.on('error', () => undefined);
    for (const envelope of this.latest.values()) ws.send(JSON.stringify(envelope));
  }

  private faultFor(path: string): Fault | undefined {
    const exact = this.faults.get(path);
    if (exact) return exact;
    for (const [pattern, fault] of this.faults) {
      if (pattern.endsWith('*') && path.startsWith(pattern.slice(0, -1))) return fault;
    }
    return undefined;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const fault = this.faultFor(path);
    if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    if (res.destroyed) return;
    if (fault?.status) {
      res.writeHead(fault.status, { 'content-type': 'text/plain' }).end('provider trouble');
      return;
    }
    if (fault?.body !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(fault.body);
      return;
    }
    this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
    const answer = await this.answer(path);
    if (res.destroyed) return;
    if (answer === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  }

  private async answer(path: string): Promise<unknown> {
    const segments = path.split('/').filter(Boolean).map(decodeURIComponent);
    if (path === '/sports') return this.catalog.map((entry) => entry.sport);
    if (segments[0] === 'sports' && segments[2] === 'leagues' && segments.length === 3) {
      return this.catalog
        .find((entry) => entry.sport.id === segments[1])
        ?.leagues.map((entry) => entry.league);
    }
    if (segments[0] === 'leagues' && segments.length === 3) {
      const league = this.catalog
        .flatMap((entry) => entry.leagues)
        .find((entry) => entry.league.id === segments[1]);
      if (!league) return undefined;
      if (segments[2] === 'teams') return league.teams;
      if (segments[2] === 'matches') return league.matches;
      return undefined;
    }
    if (segments[0] === 'teams' && segments[2] === 'kit' && segments.length === 3) {
      const kit = this.kits.get(segments[1]);
      if (!kit) return undefined;
      if (kit.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, kit.delayMs));
      return kit.url === null ? undefined : { url: kit.url };
    }
    if (segments[0] === 'live' && segments.length === 2) return this.latest.get(segments[1]);
    return undefined;
  }
}

/** A soccer state in the provider's shape; override any field. */
export function soccerState(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sport: 'soccer',
    competition: 'Premier League',
    status: '1h',
    clock: { minute: 23, second: 10, period: '1H', running: true, added: 0, at: '2026-11-21T15:23:10Z' },
    score: { home: 1, away: 0 },
    phase: { vc: 1003, team: 'home' },
    stats: {
      shots_on_target: [3, 1],
      shots_off_target: [2, 2],
      attacks: [31, 22],
      dangerous_attacks: [14, 9],
      possession: [58, 42],
      corners: [4, 1],
      yellow_cards: [1, 2],
      red_cards: [0, 0],
    },
    incidents: [{ vc: 2001, minute: '17', team: 'home', player: 'Saka', score: '1-0' }],
    ball: { x: 0.71, y: 0.38, vc: 1003 },
    extras: { xg: [1.21, 0.34], pressure: [0.2, 0.4, -0.1], form: ['WWDLW', 'LDWWL'] },
    ...overrides,
  };
}

/** A cricket state in the provider's shape; override any field. */
export function cricketState(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sport: 'cricket',
    competition: 'The Ashes - 2nd Test',
    status: 'live',
    format: 'test',
    innings: 3,
    batting: 'away',
    score: '245/6 (61.2)',
    set_score: '412 & 245/6',
    over: { number: 62, ball: 2, this_over: ['1', '0', 'W'] },
    batsmen: [
      { name: 'Smith', runs: 54, balls: 101, on_strike: true },
      { name: 'Carey', runs: 3, balls: 9 },
    ],
    bowler: { name: 'Anderson', overs: '14.2', maidens: 4, runs: 31, wickets: 2 },
    last_event: { vc: 3008, team: 'away' },
    at: '2026-11-21T04:12:33Z',
    ...overrides,
  };
}
