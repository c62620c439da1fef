import type { INestApplication } from '@nestjs/common';
import { CatalogPoller } from '../../apps/fixtures-live/src/ingest/catalog-poller.service';
import { FakeLivescores } from '../support/fake-livescores';
import { testCatalog } from './catalog-factory';
import { bootAgainst, catalogPolls } from './harness';

// Boots an app against real PostgreSQL: slow on a busy machine.
jest.setTimeout(120_000);

/**
 * Whether a catalog poll wrote anything decides whether api replicas hear of
 * a change (and drop their cached pages and recorded replays), so a poll
 * that finds the provider as it was must say so.
 */
describe('fixtures-live catalog poll', () => {
  const catalog = testCatalog();
  const fake = new FakeLivescores();
  let app: INestApplication;
  let poll: () => ReturnType<CatalogPoller['pollOnce']>;

  beforeAll(async () => {
    fake.setCatalog(catalog.sports);
    await fake.start();
    // The app's own loop polls once at start and not again during the test: these polls run alone.
    ({ app } = await bootAgainst(fake, { env: { FIXTURES_CATALOG_POLL_MS: '600000' } }));
    await catalogPolls(app);
    const poller = app.get(CatalogPoller);
    poll = () => poller.pollOnce();
  });

  afterAll(async () => {
    await app?.close();
    await fake.stop();
  });

  const leagueOf = (providerId: string) => {
    for (const sport of fake.getCatalog())
      for (const entry of sport.leagues) if (entry.league.id === providerId) return entry;
    throw new Error(`no league ${providerId}`);
  };

  it('reports no change when the provider answers what is stored', async () => {
    expect(await poll()).toEqual({ faults: [], changed: false });
    expect(await poll()).toEqual({ faults: [], changed: false });
  });

  it('reports a change of a match, then none once it is stored', async () => {
    fake.updateMatch(catalog.ids.arsChe.id, { start_time: '2031-01-01T15:00:00Z' });
    expect(await poll()).toEqual({ faults: [], changed: true });
    expect(await poll()).toEqual({ faults: [], changed: false });
  });

  it('reports a renamed league and a renamed team', async () => {
    leagueOf(catalog.ids.atp).league.name = `Renamed ${catalog.tag}`;
    expect(await poll()).toEqual({ faults: [], changed: true });
    expect(await poll()).toEqual({ faults: [], changed: false });
    const team = leagueOf(catalog.ids.epl).teams[0];
    team.name = `Renamed ${team.name}`;
    expect(await poll()).toEqual({ faults: [], changed: true });
    expect(await poll()).toEqual({ faults: [], changed: false });
  });

  it('reports a new league, its teams and its matches', async () => {
    const soccer = fake
      .getCatalog()
      .find((sport) => sport.leagues.some((entry) => entry.league.id === catalog.ids.epl));
    const epl = leagueOf(catalog.ids.epl);
    soccer?.leagues.push({
      league: { id: `${epl.league.id}-cup`, name: `Cup ${catalog.tag}` },
      teams: epl.teams.map((team) => ({ ...team, id: `${team.id}-cup` })),
      matches: epl.matches.slice(0, 1).map((match) => ({
        ...match,
        id: `${match.id}-cup`,
        stat_id: `${match.stat_id}-cup`,
        live_id: match.live_id === null ? null : `${match.live_id}-cup`,
        home_team_id: `${match.home_team_id}-cup`,
        away_team_id: `${match.away_team_id}-cup`,
      })),
    });
    expect(await poll()).toEqual({ faults: [], changed: true });
    expect(await poll()).toEqual({ faults: [], changed: false });
  });

  it('counts a poll with faults as a possible change', async () => {
    fake.setFault(`/leagues/${encodeURIComponent(catalog.ids.atp)}/teams`, { status: 500 });
    try {
      const outcome = await poll();
      expect(outcome.faults).toHaveLength(1);
      expect(outcome.changed).toBe(true);
    } finally {
      fake.setFault(`/leagues/${encodeURIComponent(catalog.ids.atp)}/teams`, null);
    }
  });
});
