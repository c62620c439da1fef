import type * as Client from '@sports-data/client';
import type { LeagueDto } from '../../apps/fixtures-live/src/catalog/league.dto';
import type { MatchDto } from '../../apps/fixtures-live/src/catalog/match.dto';
import type { SportDto } from '../../apps/fixtures-live/src/catalog/sport.dto';
import type { PageEnvelope } from '../../apps/fixtures-live/src/common/pagination';
import type {
  CricketSnapshot,
  SoccerSnapshot,
} from '../../apps/fixtures-live/src/live/domain/snapshot.types';
import type { TeamDto } from '../../apps/fixtures-live/src/teams/team.dto';
import type { BookLeague, BookSport } from '../../apps/odds-passthrough/src/book/domain/book-diff';
import type { MatchOdds } from '../../apps/odds-passthrough/src/book/domain/match-odds';
import type { PublicMatch } from '../../apps/odds-passthrough/src/book/domain/public-match';
import type { Selection } from '../../apps/odds-passthrough/src/book/domain/selection';

/*
 * The client's types against the types the services serve, checked by the
 * compiler (`npm run lint` and ts-jest): a field renamed, added as required or
 * retyped on either side fails here. `Same`: the same fields and types
 * (readonly aside). `Reads`: everything the service sends fits the client's
 * type, where the client is deliberately looser (optional fields it may not
 * get) or narrower (a passthrough the service types as unknown).
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Reads<Service, ClientType> = [Service] extends [ClientType] ? true : false;

const shapes = {
  sport: true satisfies Same<SportDto, Client.Sport>,
  league: true satisfies Same<LeagueDto, Client.League>,
  team: true satisfies Same<TeamDto, Client.Team>,
  match: true satisfies Same<MatchDto, Client.Match>,
  page: true satisfies Same<PageEnvelope<MatchDto>, Client.Page<Client.Match>>,
  soccer: true satisfies Reads<SoccerSnapshot, Client.SoccerSnapshot>,
  cricket: true satisfies Reads<
    Omit<CricketSnapshot, 'scorecard'>,
    Omit<Client.CricketSnapshot, 'scorecard'>
  >,
  bookSport: true satisfies Same<BookSport, Client.BookSport>,
  bookLeague: true satisfies Same<BookLeague, Client.BookLeague>,
  bookMatch: true satisfies Same<PublicMatch, Client.BookMatch>,
  selection: true satisfies Same<Selection, Client.Selection>,
  odds: true satisfies Same<Omit<MatchOdds, 'selections'>, Omit<Client.MatchOdds, 'selections'>>,
};

describe('client types and service types', () => {
  it('agree (checked when this file compiles)', () => {
    expect(Object.values(shapes).every(Boolean)).toBe(true);
  });
});
