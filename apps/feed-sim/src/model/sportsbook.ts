import type { Catalog, Fixture, League, ScheduledSport } from './catalog';
import { DeltaLog } from './delta-log';
import type { LiveFeed } from './live-feed';
import { americanPrice, normalise, nudge } from './odds';
import { Random, hashString } from './random';
import { SECOND, type SimTime } from './sim-time';
import { SoccerMatch } from './soccer-match';

type Designation = 'home' | 'away' | 'draw' | 'over' | 'under';
type MarketType = 'moneyline' | 'spread' | 'total' | 'team_total';
type PeriodStatus = 'open' | 'suspended' | 'closed';

export interface BookSport {
  readonly id: number;
  readonly name: string;
  readonly sport: ScheduledSport;
  readonly periods: ReadonlyArray<{ number: number; description: string }>;
}

export const BOOK_SPORTS: readonly BookSport[] = [
  {
    id: 29,
    name: 'Soccer',
    sport: 'soccer',
    periods: [
      { number: 0, description: 'Match' },
      { number: 1, description: '1st Half' },
      { number: 2, description: '2nd Half' },
    ],
  },
  { id: 8, name: 'Cricket', sport: 'cricket', periods: [{ number: 0, description: 'Match' }] },
  {
    id: 33,
    name: 'Tennis',
    sport: 'tennis',
    periods: [
      { number: 0, description: 'Match' },
      { number: 1, description: '1st Set Winner' },
    ],
  },
  {
    id: 4,
    name: 'Basketball',
    sport: 'basketball',
    periods: [
      { number: 0, description: 'Game' },
      { number: 1, description: '1st Half' },
    ],
  },
];

interface Outcome {
  readonly designation?: Designation;
  readonly participantId?: number;
}

interface Market {
  readonly matchupId: number;
  readonly key: string;
  readonly type: MarketType;
  readonly period: number;
  isAlternate: boolean;
  readonly side?: 'home' | 'away';
  /** Without an explicit status the matchup period's status applies. */
  readonly explicitStatus: boolean;
  readonly explicitCutoff: boolean;
  /** Line of the first outcome (home points, or the total). */
  points: number | null;
  probabilities: number[];
  readonly outcomes: readonly Outcome[];
  status: 'open' | 'suspended';
  limit: number;
  version: number;
  json: string | null;
}

interface Participant {
  readonly id: number;
  readonly alignment: 'home' | 'away' | 'neutral';
  readonly name: string;
}

interface Matchup {
  readonly id: number;
  readonly sport: BookSport;
  readonly leagueId: number;
  readonly fixture: Fixture;
  readonly kind: 'prematch' | 'live' | 'special';
  readonly parentId: number | null;
  readonly participants: readonly Participant[];
  readonly special?: string;
  readonly periods: Array<{ number: number; status: PeriodStatus; cutoffMs: number | null }>;
  readonly markets: Map<string, Market>;
  readonly random: Random;
  version: number;
  json: string | null;
  /** Sim time until which the matchup stays suspended (after a goal). */
  suspendedUntil: number;
  goalsSeen: number;
}

interface SportState {
  readonly sport: BookSport;
  readonly matchups: Map<number, Matchup>;
  readonly markets: Map<string, Market>;
  readonly log: DeltaLog;
  matchupsVersion: number;
  marketsBody: { last: number; json: string } | null;
  matchupsBody: { version: number; json: string } | null;
}

export interface MarketsAnswer {
  readonly status: 200 | 410;
  readonly json?: string;
  readonly last?: number;
}

const MATCHUP_ID_BASE = 1_600_000_000;
const ID_SLOTS = 10_000_000;
const SLOT = 32;
/** The book opens a fixture's markets this long before its start (sim time). */
const BOOK_HORIZON_MS = 24 * 3600 * 1000;
/** Long after a fixture has left the catalog (3 h after its end), its id slot may be reused. */
const SLOT_KEPT_MS = 12 * 3600 * 1000;

/**
 * The sportsbook: matchups and straight markets for the catalog's fixtures
 * (same team names as the live-score side) plus a book-only sport, moving
 * every tick. Each change takes the next cursor as its version and goes into
 * the sport's delta log; full bodies are serialized once per version.
 */
export class Sportsbook {
  private cursor: number;
  private readonly sports = new Map<number, SportState>();
  private readonly leagueIds = new Map<string, number>();
  private readonly usedSlots = new Map<number, string>();
  private readonly fixtureSlots = new Map<string, { slot: number; forgetAt: number }>();
  private ticks = 0;
  private readonly checkpoints: Array<{ wallMs: number; cursor: number }> = [];

  constructor(
    private readonly catalog: Catalog,
    private readonly live: LiveFeed,
    private readonly time: SimTime,
    private readonly retentionMs: number,
  ) {
    this.cursor = 900_000 + (catalog.seed % 100_000);
    catalog.leagues.forEach((league, index) => this.leagueIds.set(league.id, 1000 + index * 7));
    for (const sport of BOOK_SPORTS) {
      this.sports.set(sport.id, {
        sport,
        matchups: new Map(),
        markets: new Map(),
        log: new DeltaLog(this.cursor),
        matchupsVersion: this.cursor,
        marketsBody: null,
        matchupsBody: null,
      });
    }
  }

  sportList(): Array<{ id: number; name: string }> {
    return BOOK_SPORTS.map(({ id, name }) => ({ id, name }));
  }

  has(sportId: number): boolean {
    return this.sports.has(sportId);
  }

  periods(sportId: number): BookSport['periods'] | undefined {
    return this.sports.get(sportId)?.sport.periods;
  }

  leagues(sportId: number): Array<{ id: number; name: string }> | undefined {
    const state = this.sports.get(sportId);
    if (!state) return undefined;
    return (this.catalog.leaguesBySport.get(state.sport.sport) ?? []).map((league) => ({
      id: this.leagueId(league),
      name: league.name,
    }));
  }

  /** The full matchup list and its version (for the ETag). */
  matchups(sportId: number): { version: number; json: string } | undefined {
    const state = this.sports.get(sportId);
    if (!state) return undefined;
    if (state.matchupsBody?.version !== state.matchupsVersion) {
      const items = [...state.matchups.values()].map((matchup) => this.matchupJson(matchup));
      state.matchupsBody = { version: state.matchupsVersion, json: `[${items.join(',')}]` };
    }
    return state.matchupsBody;
  }

  /** Every listed market, serialized once per version of the sport. */
  markets(sportId: number): { last: number; json: string } | undefined {
    const state = this.sports.get(sportId);
    if (!state) return undefined;
    const last = state.log.last;
    if (state.marketsBody?.last !== last) {
      const items = [...state.markets.values()].map((market) => this.marketJson(state, market));
      state.marketsBody = { last, json: `{"last":${last},"markets":[${items.join(',')}]}` };
    }
    return state.marketsBody;
  }

  /** What changed after `since`: new and changed markets, and the keys withdrawn. */
  marketsSince(sportId: number, since: number): MarketsAnswer | undefined {
    const state = this.sports.get(sportId);
    if (!state) return undefined;
    const answer = state.log.since(since, this.cursor);
    if (answer.kind === 'gone') return { status: 410 };
    const changed: string[] = [];
    const withdrawn: string[] = [];
    for (const ref of answer.refs) {
      const market = state.markets.get(ref);
      if (market) changed.push(this.marketJson(state, market));
      else {
        const split = ref.indexOf('|');
        withdrawn.push(
          JSON.stringify({ matchup_id: Number(ref.slice(0, split)), key: ref.slice(split + 1) }),
        );
      }
    }
    const last = state.log.last;
    return {
      status: 200,
      last,
      json: `{"last":${last},"markets":[${changed.join(',')}],"withdrawn":[${withdrawn.join(',')}]}`,
    };
  }

  /** Brings the book to sim time `now`: lists, moves, suspends and withdraws. */
  advance(now: number, wallNow: number): void {
    for (const league of this.catalog.leagues) {
      const sport = BOOK_SPORTS.find((candidate) => candidate.sport === league.sport);
      const state = sport && this.sports.get(sport.id);
      if (!state) continue;
      for (const fixture of this.catalog.fixturesOf(league, now))
        this.syncFixture(state, league, fixture, now);
    }
    if (++this.ticks % 200 === 0) this.pruneSlots(now);
    this.checkpoints.push({ wallMs: wallNow, cursor: this.cursor });
    while (this.checkpoints.length > 0 && this.checkpoints[0].wallMs < wallNow - this.retentionMs) {
      const forgotten = this.checkpoints.shift();
      if (forgotten) for (const state of this.sports.values()) state.log.forgetUpTo(forgotten.cursor);
    }
  }

  /** Counts, for logs and load tests. */
  size(): { matchups: number; markets: number } {
    let matchups = 0;
    let markets = 0;
    for (const state of this.sports.values()) {
      matchups += state.matchups.size;
      markets += state.markets.size;
    }
    return { matchups, markets };
  }

  private syncFixture(state: SportState, league: League, fixture: Fixture, now: number): void {
    const status = this.live.statusOf(fixture);
    const slot = this.slotOf(fixture);
    const prematchId = MATCHUP_ID_BASE + slot * SLOT;
    const liveId = prematchId + 3;
    const specialId = prematchId + 8;
    const open = status === 'scheduled' && fixture.startMs - now <= BOOK_HORIZON_MS;
    const listed = open || status === 'in_play' || status === 'close_of_play';
    const inPlay = status === 'in_play' || status === 'close_of_play';
    const wantSpecial = listed && !inPlay && league.sport === 'soccer' && fixture.seed % 2 === 0;

    this.ensure(state, prematchId, listed, () =>
      this.createMatchup(state, league, fixture, 'prematch', prematchId),
    );
    this.ensure(state, liveId, inPlay, () => this.createMatchup(state, league, fixture, 'live', liveId));
    this.ensure(state, specialId, wantSpecial, () =>
      this.createMatchup(state, league, fixture, 'special', specialId),
    );
    // A prematch matchup stays frozen (open, past cutoff) once its live one exists.
    const prematch = state.matchups.get(prematchId);
    if (prematch && !inPlay) this.evolve(state, prematch);
    const special = state.matchups.get(specialId);
    if (special) this.evolve(state, special);
    const liveMatchup = state.matchups.get(liveId);
    if (liveMatchup) this.evolveLive(state, liveMatchup, now, status === 'close_of_play');
  }

  private ensure(state: SportState, id: number, wanted: boolean, create: () => Matchup): void {
    const existing = state.matchups.get(id);
    if (wanted && !existing) {
      const matchup = create();
      state.matchups.set(id, matchup);
      for (const market of matchup.markets.values()) this.touchMarket(state, market, true);
      this.touchMatchup(state, matchup);
    } else if (!wanted && existing) {
      for (const market of existing.markets.values()) this.withdraw(state, existing, market);
      state.matchups.delete(id);
      state.matchupsVersion = this.next();
    }
  }

  /** Prematch and specials: a price moves now and then, lines move rarely. */
  private evolve(state: SportState, matchup: Matchup): void {
    const r = matchup.random;
    if (r.chance(0.05)) this.movePrice(state, matchup, r.pick([...matchup.markets.values()]));
    if (r.chance(0.004)) this.moveLine(state, matchup);
    if (r.chance(0.002)) this.toggleSuspension(state, matchup);
  }

  private evolveLive(state: SportState, matchup: Matchup, now: number, stopped: boolean): void {
    const r = matchup.random;
    const model = this.live.model(matchup.fixture.id);
    if (model instanceof SoccerMatch) {
      const { home, away } = model.goals;
      if (home + away !== matchup.goalsSeen) {
        matchup.goalsSeen = home + away;
        matchup.suspendedUntil = now + 20 * SECOND;
        this.repriceForScore(state, matchup, home - away);
      }
      if (model.status !== '1h' && model.status !== 'not_started') this.closePeriod(state, matchup, 1);
    }
    const suspended = stopped || now < matchup.suspendedUntil;
    this.setPeriods(state, matchup, suspended ? 'suspended' : 'open');
    if (suspended) return;
    const markets = [...matchup.markets.values()];
    if (markets.length === 0) return;
    for (let i = 0; i < 2; i++) this.movePrice(state, matchup, r.pick(markets));
    if (r.chance(0.02)) this.moveLine(state, matchup);
    if (r.chance(0.01)) matchup.suspendedUntil = now + 5 * SECOND;
  }

  /** After a goal the money lines follow the score: the leader becomes the favourite. */
  private repriceForScore(state: SportState, matchup: Matchup, lead: number): void {
    const home = Math.min(0.9, Math.max(0.05, 0.42 + 0.22 * lead));
    const away = Math.min(0.9, Math.max(0.05, 0.32 - 0.22 * lead));
    const draw = Math.max(0.05, 1 - home - away);
    for (const market of matchup.markets.values()) {
      if (market.type !== 'moneyline' || market.period !== 0) continue;
      market.probabilities = normalise([home, away, draw].slice(0, market.probabilities.length));
      this.touchMarket(state, market);
    }
  }

  private setPeriods(state: SportState, matchup: Matchup, status: 'open' | 'suspended'): void {
    let changed = false;
    for (const period of matchup.periods) {
      if (period.status === 'closed' || period.status === status) continue;
      period.status = status;
      changed = true;
    }
    if (!changed) return;
    this.touchMatchup(state, matchup);
    for (const market of matchup.markets.values()) {
      if (market.explicitStatus) market.status = status;
      this.touchMarket(state, market);
    }
  }

  /** The first half is over: its period closes and its markets leave the list. */
  private closePeriod(state: SportState, matchup: Matchup, number: number): void {
    const period = matchup.periods.find((candidate) => candidate.number === number);
    if (!period || period.status === 'closed') return;
    period.status = 'closed';
    this.touchMatchup(state, matchup);
    for (const market of [...matchup.markets.values()]) {
      if (market.period === number) this.withdraw(state, matchup, market);
    }
  }

  private toggleSuspension(state: SportState, matchup: Matchup): void {
    const explicit = [...matchup.markets.values()].filter((market) => market.explicitStatus);
    if (explicit.length === 0) return;
    const market = matchup.random.pick(explicit);
    market.status = market.status === 'open' ? 'suspended' : 'open';
    this.touchMarket(state, market);
  }

  private movePrice(state: SportState, matchup: Matchup, market: Market): void {
    const r = matchup.random;
    const step = (r.next() - 0.5) * 0.12;
    market.probabilities =
      market.probabilities.length === 2
        ? [nudge(market.probabilities[0], step), 1 - nudge(market.probabilities[0], step)]
        : normalise(market.probabilities.map((p) => nudge(p, (r.next() - 0.5) * 0.12)));
    if (r.chance(0.05)) market.limit = r.pick([500, 1000, 2500, 5000, 10000]);
    if (market.explicitStatus && market.status === 'suspended' && r.chance(0.3)) market.status = 'open';
    this.touchMarket(state, market);
  }

  /**
   * A main line moves: the ladder of lines shifts by half a point, so the
   * market at the new line appears under a new key and the one that fell off
   * the ladder is withdrawn. A market keyed without a line keeps its key.
   */
  private moveLine(state: SportState, matchup: Matchup): void {
    const candidates = [...matchup.markets.values()].filter(
      (market) => (market.type === 'spread' || market.type === 'total') && !market.isAlternate,
    );
    if (candidates.length === 0) return;
    const main = matchup.random.pick(candidates);
    const shift = matchup.random.chance(0.5) ? 0.5 : -0.5;
    if (main.points === null || (main.type === 'total' && main.points + shift <= 0)) return;
    const ladder = [...matchup.markets.values()].filter(
      (market) => market.type === main.type && market.period === main.period,
    );
    const moved = ladder.map((market) => {
      const points = (market.points ?? 0) + shift;
      const key = lineOfKey(market.key) === null ? market.key : keyWithLine(market.key, points);
      return {
        source: market,
        key,
        points,
        probabilities: [...market.probabilities],
        isAlternate: market.isAlternate,
      };
    });
    const keys = new Set(moved.map((entry) => entry.key));
    for (const market of ladder) if (!keys.has(market.key)) this.withdraw(state, matchup, market);
    for (const entry of moved) {
      const existing = matchup.markets.get(entry.key);
      const market: Market = existing ?? { ...entry.source, key: entry.key, json: null };
      market.points = entry.points;
      market.probabilities = entry.probabilities;
      market.isAlternate = entry.isAlternate;
      if (!existing) matchup.markets.set(entry.key, market);
      this.touchMarket(state, market, !existing);
    }
  }

  private withdraw(state: SportState, matchup: Matchup, market: Market): void {
    matchup.markets.delete(market.key);
    const ref = `${market.matchupId}|${market.key}`;
    if (state.markets.get(ref) !== market) return;
    state.markets.delete(ref);
    state.log.record(this.next(), ref);
  }

  private touchMarket(state: SportState, market: Market, added = false): void {
    market.version = this.next();
    market.json = null;
    const ref = `${market.matchupId}|${market.key}`;
    if (added) state.markets.set(ref, market);
    state.log.record(market.version, ref);
  }

  private touchMatchup(state: SportState, matchup: Matchup): void {
    matchup.version = this.next();
    matchup.json = null;
    state.matchupsVersion = matchup.version;
  }

  private next(): number {
    return ++this.cursor;
  }

  private leagueId(league: League): number {
    return this.leagueIds.get(league.id) ?? 0;
  }

  /** A stable id slot per fixture; a clash moves on to the next free slot. */
  private slotOf(fixture: Fixture): number {
    const known = this.fixtureSlots.get(fixture.id);
    if (known !== undefined) return known.slot;
    let slot = hashString(`${this.catalog.seed}:${fixture.id}`) % ID_SLOTS;
    while (this.usedSlots.has(slot)) slot = (slot + 1) % ID_SLOTS;
    this.usedSlots.set(slot, fixture.id);
    const forgetAt = fixture.startMs + fixture.league.maxDurationMs + SLOT_KEPT_MS;
    this.fixtureSlots.set(fixture.id, { slot, forgetAt });
    return slot;
  }

  /** Frees the id slots of fixtures long gone from the catalog, so memory stays flat over days. */
  private pruneSlots(now: number): void {
    for (const [id, { slot, forgetAt }] of this.fixtureSlots) {
      if (forgetAt >= now) continue;
      this.fixtureSlots.delete(id);
      this.usedSlots.delete(slot);
    }
  }

  private createMatchup(
    state: SportState,
    league: League,
    fixture: Fixture,
    kind: Matchup['kind'],
    id: number,
  ): Matchup {
    const random = new Random(fixture.seed).fork(`book:${kind}`);
    const periods: Matchup['periods'] = state.sport.periods
      .filter((period) => period.number <= 1)
      .map((period) => ({
        number: period.number,
        status: 'open',
        cutoffMs: this.cutoffOf(fixture, kind, period.number),
      }));
    let participants: Participant[];
    let special: string | undefined;
    if (kind === 'special') {
      special = `${fixture.home.name} v ${fixture.away.name} - First Goalscorer`;
      const players = [...fixture.home.players.slice(7, 11), ...fixture.away.players.slice(7, 11)];
      participants = players.map((name, index) => ({ id: id + 1 + index, alignment: 'neutral', name }));
    } else {
      participants = [
        { id: id + 1, alignment: 'home', name: fixture.home.name },
        { id: id + 2, alignment: 'away', name: fixture.away.name },
      ];
    }
    const matchup: Matchup = {
      id,
      sport: state.sport,
      leagueId: this.leagueId(league),
      fixture,
      kind,
      parentId: kind === 'live' ? id - 3 : null,
      participants,
      special,
      // Specials list their period without a cutoff: readers fall back to the start time.
      periods: kind === 'special' ? [{ number: 0, status: 'open', cutoffMs: null }] : periods,
      markets: new Map(),
      random,
      version: 0,
      json: null,
      suspendedUntil: 0,
      goalsSeen: 0,
    };
    for (const market of buildMarkets(matchup, random)) matchup.markets.set(market.key, market);
    return matchup;
  }

  /** Prematch periods close at the start; live ones at the expected end of the period. */
  private cutoffOf(fixture: Fixture, kind: Matchup['kind'], period: number): number | null {
    if (kind !== 'live') return fixture.startMs;
    if (fixture.league.sport === 'soccer') return fixture.startMs + (period === 1 ? 47 : 110) * 60 * SECOND;
    // The whole-match period of a live matchup stays open all day, later periods for an hour.
    return fixture.startMs + (period === 0 ? 12 * 60 : 60) * 60 * SECOND;
  }

  private matchupJson(matchup: Matchup): string {
    if (matchup.json) return matchup.json;
    const body: Record<string, unknown> = {
      id: matchup.id,
      league_id: matchup.leagueId,
      type: matchup.kind === 'special' ? 'special' : 'matchup',
      parent_id: matchup.parentId,
      is_live: matchup.kind === 'live',
      start_time: this.time.iso(matchup.fixture.startMs),
      version: matchup.version,
      participants: matchup.participants,
      periods: matchup.periods.map((period) =>
        period.cutoffMs === null
          ? { number: period.number, status: period.status }
          : { number: period.number, status: period.status, cutoff_at: this.time.iso(period.cutoffMs) },
      ),
    };
    if (matchup.special) body.special = { description: matchup.special };
    matchup.json = JSON.stringify(body);
    return matchup.json;
  }

  private marketJson(state: SportState, market: Market): string {
    if (market.json) return market.json;
    const matchup = state.matchups.get(market.matchupId);
    const period = matchup?.periods.find((candidate) => candidate.number === market.period);
    const body: Record<string, unknown> = {
      matchup_id: market.matchupId,
      key: market.key,
      type: market.type,
      period: market.period,
      is_alternate: market.isAlternate,
    };
    if (market.side) body.side = market.side;
    if (market.explicitStatus) body.status = market.status;
    if (market.explicitCutoff && period?.cutoffMs != null)
      body.cutoff_at = offsetIso(this.time, period.cutoffMs);
    body.version = market.version;
    body.limits = [{ type: 'maxRiskStake', amount: market.limit }];
    body.prices = market.outcomes.map((outcome, index) => {
      const price: Record<string, unknown> =
        outcome.participantId !== undefined
          ? { participant_id: outcome.participantId }
          : { designation: outcome.designation };
      if (market.points !== null) {
        price.points = market.type === 'spread' && index === 1 ? -market.points : market.points;
      }
      price.price = americanPrice(market.probabilities[index]);
      return price;
    });
    market.json = JSON.stringify(body);
    return market.json;
  }
}

/** Times are sometimes written with an offset, as the real book does; readers normalise them. */
function offsetIso(time: SimTime, simMs: number): string {
  const wall = Math.floor(time.wallAt(simMs) / 1000) * 1000;
  if ((wall / 1000) % 3 !== 0) return new Date(wall).toISOString();
  const shifted = new Date(wall + 2 * 3600 * 1000).toISOString().slice(0, 19);
  return `${shifted}+02:00`;
}

function lineOfKey(key: string): number | null {
  const parts = key.split(';');
  if (parts.length < 4) return null;
  const line = Number(parts[3]);
  return Number.isFinite(line) ? line : null;
}

function keyWithLine(key: string, line: number): string {
  const parts = key.split(';');
  parts[3] = String(line);
  return parts.join(';');
}

/** The markets a matchup opens with: money lines, handicap and total ladders, team totals, a special. */
function buildMarkets(matchup: Matchup, random: Random): Market[] {
  const markets: Market[] = [];
  const sport = matchup.sport.sport;
  const strength = random.next() * 0.5 - 0.25;
  const add = (
    type: MarketType,
    period: number,
    key: string,
    points: number | null,
    outcomes: Outcome[],
    probabilities: number[],
    isAlternate = false,
    side?: 'home' | 'away',
  ): void => {
    markets.push({
      matchupId: matchup.id,
      key,
      type,
      period,
      isAlternate,
      side,
      explicitStatus: random.chance(0.6),
      explicitCutoff: random.chance(0.5),
      points,
      probabilities,
      outcomes,
      status: 'open',
      limit: random.pick([500, 1000, 2500, 5000]),
      version: 0,
      json: null,
    });
  };
  if (matchup.kind === 'special') {
    const outcomes = matchup.participants.map((participant) => ({ participantId: participant.id }));
    const weights = normalise(outcomes.map(() => 0.5 + random.next()));
    add('moneyline', 0, 's;0;m', null, outcomes, weights);
    return markets;
  }
  const byId = sport === 'tennis';
  const home: Outcome = byId ? { participantId: matchup.participants[0].id } : { designation: 'home' };
  const away: Outcome = byId ? { participantId: matchup.participants[1].id } : { designation: 'away' };
  const over: Outcome = { designation: 'over' };
  const under: Outcome = { designation: 'under' };
  const homeWin = 0.5 + strength;
  const scoring = { soccer: 2.5, cricket: 300.5, tennis: 22.5, basketball: 210.5 }[sport];
  const step = { soccer: 0.5, cricket: 10, tennis: 1, basketball: 2 }[sport];
  const periodCount = matchup.periods.length;
  for (let period = 0; period < periodCount; period++) {
    const scale = period === 0 ? 1 : 0.5;
    if (sport === 'soccer') {
      const draw = 0.27;
      add(
        'moneyline',
        period,
        `s;${period};m`,
        null,
        [home, away, { designation: 'draw' }],
        normalise([homeWin - draw / 2, 1 - homeWin - draw / 2, draw]),
      );
    } else {
      add('moneyline', period, `s;${period};m`, null, [home, away], [homeWin, 1 - homeWin]);
    }
    if (sport === 'cricket') continue;
    const mainSpread = roundTo(-strength * 4 * step * scale, 0.5) || -0.5;
    const alternates = period === 0 ? 2 : 1;
    for (let offset = -alternates; offset <= alternates; offset++) {
      const line = mainSpread + offset * step;
      add(
        'spread',
        period,
        `s;${period};s;${line}`,
        line,
        [home, away],
        [clamp(0.5 + offset * 0.12), 0],
        offset !== 0,
      );
    }
    const mainTotal = roundTo(scoring * scale, 0.5);
    // The book keys its main basketball total without a line; the line lives in the prices.
    const lineless = sport === 'basketball' && period === 0;
    for (let offset = -alternates; offset <= alternates; offset++) {
      const line = mainTotal + offset * step;
      const key = lineless && offset === 0 ? `s;${period};ou` : `s;${period};ou;${line}`;
      add('total', period, key, line, [over, under], [clamp(0.5 - offset * 0.12), 0], offset !== 0);
    }
    if (period === 0 && sport !== 'tennis') {
      for (const side of ['home', 'away'] as const) {
        const line = roundTo((mainTotal / 2) * (side === 'home' ? 1 + strength : 1 - strength), 0.5);
        add(
          'team_total',
          period,
          `s;${period};tt;${line};${side}`,
          line,
          [over, under],
          [0.5, 0],
          false,
          side,
        );
      }
    }
  }
  for (const market of markets) {
    if (market.probabilities.length === 2) market.probabilities[1] = 1 - market.probabilities[0];
  }
  return markets;
}

function roundTo(value: number, step: number): number {
  return Math.round(value / step) * step;
}

function clamp(probability: number): number {
  return Math.min(0.9, Math.max(0.1, probability));
}
