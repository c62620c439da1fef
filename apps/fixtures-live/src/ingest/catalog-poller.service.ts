import { Injectable, Logger } from '@nestjs/common';
import { backoffDelay, DEFAULT_BACKOFF } from '@app/clock';
import { CatalogStore } from './catalog-store';
import { forEachLimited } from './concurrency';
import { describeFault, LivescoresClient } from './livescores-client';
import type { UpstreamSport } from '../upstream/livescores.types';
import { parseLeagues, parseMatches, parseSports, parseTeams } from '../upstream/livescores.parsers';

/** Leagues read at once during a poll: enough for a few hundred leagues, gentle on the provider. */
const LEAGUE_CONCURRENCY = 8;

export interface PollOutcome {
  /** Problems met; the rest of the catalog was still read and stored. */
  readonly faults: string[];
  /**
   * Whether the poll wrote anything. A poll with faults counts as changed: a
   * write whose answer was lost may still have landed.
   */
  readonly changed: boolean;
}

/** One pass over the provider's catalog: sports, their leagues, each league's teams and matches. */
@Injectable()
export class CatalogPoller {
  private readonly logger = new Logger(CatalogPoller.name);

  constructor(
    private readonly client: LivescoresClient,
    private readonly store: CatalogStore,
  ) {}

  async pollOnce(): Promise<PollOutcome> {
    const faults: string[] = [];
    let sports: UpstreamSport[];
    try {
      sports = await this.client.list('/sports', parseSports);
    } catch (error) {
      return { faults: [describeFault(error)], changed: true };
    }
    let changed = false;
    const noteWrite = (written: boolean) => {
      changed ||= written;
    };
    const failures = await forEachLimited(sports, 1, (sport) => this.pollSport(sport, faults, noteWrite));
    for (const failure of failures) faults.push(describeFault(failure.error));
    for (const fault of faults) this.logger.warn(`Catalog poll: ${fault}`);
    return { faults, changed: changed || faults.length > 0 };
  }

  /** Delay before the next poll: the interval after a clean pass, a shorter backoff after faults. */
  static nextDelay(intervalMs: number, faultyPolls: number): number {
    return faultyPolls === 0
      ? intervalMs
      : Math.min(intervalMs, backoffDelay(faultyPolls - 1, DEFAULT_BACKOFF));
  }

  private async pollSport(
    sport: UpstreamSport,
    faults: string[],
    noteWrite: (written: boolean) => void,
  ): Promise<void> {
    const { value: sportId, changed: sportChanged } = await this.store.upsertSport(sport);
    noteWrite(sportChanged);
    const leagues = await this.client.list(`/sports/${encodeURIComponent(sport.id)}/leagues`, parseLeagues);
    const { value: leagueIds, changed: leaguesChanged } = await this.store.upsertLeagues(sportId, leagues);
    noteWrite(leaguesChanged);
    const failures = await forEachLimited(leagues, LEAGUE_CONCURRENCY, async (league) => {
      const leagueId = leagueIds.get(league.id);
      if (leagueId === undefined) return;
      const path = `/leagues/${encodeURIComponent(league.id)}`;
      const teams = await this.client.list(`${path}/teams`, parseTeams);
      noteWrite(await this.store.upsertTeams(leagueId, teams));
      const matches = await this.client.list(`${path}/matches`, parseMatches);
      noteWrite(await this.store.upsertMatches(sportId, leagueId, matches));
    });
    for (const failure of failures) faults.push(`league ${failure.item.id}: ${describeFault(failure.error)}`);
  }
}
