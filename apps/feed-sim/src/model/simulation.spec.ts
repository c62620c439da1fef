import { Simulation, type SimulationOptions } from './simulation';

const WALL = Date.UTC(2026, 10, 21, 15);

function simulation(overrides: Partial<SimulationOptions> = {}): Simulation {
  return new Simulation({
    seed: 11,
    scale: 1,
    speed: 60,
    wallStart: WALL,
    deltaRetentionMs: 10_000,
    kitDelayMs: 20_000,
    ...overrides,
  });
}

interface MarketBody {
  matchup_id: number;
  key: string;
  version: number;
  prices: Array<{ price: number; points?: number; participant_id?: number; designation?: string }>;
}

interface MatchupBody {
  id: number;
  type: string;
  parent_id: number | null;
  is_live: boolean;
  participants: Array<{ id: number; alignment: string }>;
  periods: Array<{ number: number; status: string; cutoff_at?: string }>;
}

function fullMarkets(sim: Simulation, sport: number): { last: number; markets: MarketBody[] } {
  const body = sim.book.markets(sport);
  if (!body) throw new Error(`no sport ${sport}`);
  return JSON.parse(body.json) as { last: number; markets: MarketBody[] };
}

function matchups(sim: Simulation, sport: number): MatchupBody[] {
  return JSON.parse(sim.book.matchups(sport)?.json ?? '[]') as MatchupBody[];
}

const keyOf = (market: { matchup_id: number; key: string }) => `${market.matchup_id}|${market.key}`;

describe('Simulation', () => {
  it('is reproducible from the seed: same stream, catalog and book for the same wall times', () => {
    const a = simulation();
    const b = simulation();
    for (let i = 0; i <= 20; i++) {
      const wall = WALL + i * 500;
      expect(a.tick(wall).map((message) => message.json)).toEqual(
        b.tick(wall).map((message) => message.json),
      );
    }
    expect(a.matchesOf('lg-soc0')).toEqual(b.matchesOf('lg-soc0'));
    expect(a.book.markets(29)?.json).toBe(b.book.markets(29)?.json);
    expect(a.book.matchups(4)?.json).toBe(b.book.matchups(4)?.json);
    const other = simulation({ seed: 12 });
    other.tick(WALL);
    expect(other.matchesOf('lg-soc0')).not.toEqual(a.matchesOf('lg-soc0'));
  });

  it('sizes the catalog by scale', () => {
    const demo = simulation();
    demo.tick(WALL);
    const count = (sim: Simulation) =>
      sim
        .sports()
        .flatMap((sport) => sim.leaguesOf(sport.id) ?? [])
        .reduce((sum, league) => sum + (sim.matchesOf(league.id)?.length ?? 0), 0);
    expect(count(demo)).toBeGreaterThanOrEqual(20);
    expect(count(demo)).toBeLessThanOrEqual(60);
    const bigger = simulation({ scale: 10 });
    bigger.tick(WALL);
    expect(count(bigger)).toBeGreaterThan(5 * count(demo));
  });

  it('makes a delta applied to the last full list equal the next full list', () => {
    const sim = simulation();
    sim.tick(WALL);
    for (const sport of [29, 4, 33, 8]) {
      const before = fullMarkets(sim, sport);
      const state = new Map(before.markets.map((market) => [keyOf(market), market]));
      for (let i = 1; i <= 8; i++) sim.tick(WALL + i * 500);
      const answer = sim.book.marketsSince(sport, before.last);
      expect(answer?.status).toBe(200);
      const delta = JSON.parse(answer?.json ?? '{}') as {
        last: number;
        markets: MarketBody[];
        withdrawn: Array<{ matchup_id: number; key: string }>;
      };
      for (const gone of delta.withdrawn) state.delete(keyOf(gone));
      for (const market of delta.markets) {
        expect(market.version).toBeGreaterThan(before.last);
        state.set(keyOf(market), market);
      }
      const after = fullMarkets(sim, sport);
      expect(delta.last).toBe(after.last);
      expect(new Map(after.markets.map((market) => [keyOf(market), market]))).toEqual(state);
    }
  });

  it('answers 410 for a cursor it no longer remembers', () => {
    const sim = simulation();
    sim.tick(WALL);
    const first = fullMarkets(sim, 29).last;
    expect(sim.book.marketsSince(29, first)?.status).toBe(200);
    expect(sim.book.marketsSince(29, first - 1000)?.status).toBe(410);
    for (let i = 1; i <= 30; i++) sim.tick(WALL + i * 1000);
    expect(sim.book.marketsSince(29, first)?.status).toBe(410);
    expect(sim.book.marketsSince(29, fullMarkets(sim, 29).last)?.status).toBe(200);
  });

  it('leaves the prematch matchup frozen open once its live matchup is listed', () => {
    const sim = simulation();
    sim.tick(WALL);
    const list = matchups(sim, 29);
    const live = list.find((matchup) => matchup.is_live && matchup.parent_id !== null);
    const parent = list.find((matchup) => matchup.id === live?.parent_id);
    expect(parent).toMatchObject({ is_live: false, type: 'matchup' });
    for (const period of parent?.periods ?? []) {
      expect(period.status).toBe('open');
      expect(Date.parse(period.cutoff_at ?? '')).toBeLessThan(WALL);
    }
    const versions = () =>
      fullMarkets(sim, 29)
        .markets.filter((market) => market.matchup_id === parent?.id)
        .map((market) => market.version);
    const before = versions();
    expect(before.length).toBeGreaterThan(0);
    for (let i = 1; i <= 10; i++) sim.tick(WALL + i * 500);
    expect(versions()).toEqual(before);
  });

  it('prices specials by participant id, keys some totals without a line, never prices inside (-100, 100)', () => {
    const sim = simulation();
    sim.tick(WALL);
    const specials = matchups(sim, 29).filter((matchup) => matchup.type === 'special');
    expect(specials.length).toBeGreaterThan(0);
    const markets = fullMarkets(sim, 29).markets;
    for (const special of specials) {
      const ids = new Set(special.participants.map((participant) => participant.id));
      expect(special.participants.every((participant) => participant.alignment === 'neutral')).toBe(true);
      for (const market of markets.filter((candidate) => candidate.matchup_id === special.id)) {
        for (const price of market.prices) expect(ids.has(price.participant_id ?? -1)).toBe(true);
      }
    }
    const lineless = fullMarkets(sim, 4).markets.filter((market) => market.key === 's;0;ou');
    expect(lineless.length).toBeGreaterThan(0);
    for (const market of lineless) expect(typeof market.prices[0].points).toBe('number');
    for (const sport of [29, 8, 33, 4]) {
      for (const market of fullMarkets(sim, sport).markets) {
        for (const { price } of market.prices) expect(price <= -100 || price >= 100).toBe(true);
      }
    }
  });

  it('suspends live matchups (after goals) and reopens them', () => {
    const sim = simulation();
    const seen = new Map<number, string[]>();
    for (let i = 0; i <= 400; i++) {
      sim.tick(WALL + i * 500);
      for (const matchup of matchups(sim, 29).filter((candidate) => candidate.is_live)) {
        const status = matchup.periods.find((period) => period.number === 0)?.status ?? 'none';
        const list = seen.get(matchup.id) ?? [];
        if (list[list.length - 1] !== status) list.push(status);
        seen.set(matchup.id, list);
      }
    }
    const reopened = [...seen.values()].filter((list) => list.join().includes('suspended,open'));
    expect(reopened.length).toBeGreaterThan(0);
  });

  it('keeps kits unknown at first and knows them all after the kit delay', () => {
    const sim = simulation();
    const teams = sim.teamsOf('lg-soc0') ?? [];
    expect(teams.some((team) => sim.kitOf(team.id, WALL) === null)).toBe(true);
    for (const team of teams) expect(sim.kitOf(team.id, WALL + 20_000)).toMatch(/^https:\/\//);
    expect(sim.kitOf('tm-nope', WALL)).toBeUndefined();
  });
});
