import { NotFoundException } from '@nestjs/common';
import { AuthError, type Principal, sportsbookSportFailure } from '@app/auth';
import type { LeagueInfo, MatchInfo, SportInfo } from '../book/book-messages';
import type { BookConfig, BookReadPort } from '../book/book-read-port';
import type { MatchOdds } from '../book/domain/match-odds';

/**
 * The grant rules of the REST routes: lists are filtered to the key's granted
 * sports, an explicitly named sport (by `?sport=` or through a match) that is
 * not granted is refused.
 */
export class BookCatalog {
  constructor(
    private readonly replica: BookReadPort,
    private readonly book: BookConfig,
  ) {}

  sports(principal: Principal): SportInfo[] {
    return this.replica.sports(this.book.name).filter((sport) => this.granted(principal, sport.id));
  }

  leagues(principal: Principal, sport: number | undefined): LeagueInfo[] {
    if (sport !== undefined) this.requireSport(principal, sport);
    return this.replica
      .leagues(this.book.name)
      .filter((league) =>
        sport === undefined ? this.granted(principal, league.sport_id) : league.sport_id === sport,
      );
  }

  matches(principal: Principal, sport: number | undefined, league: number | undefined): MatchInfo[] {
    if (sport !== undefined) this.requireSport(principal, sport);
    return this.replica
      .matches(this.book.name)
      .filter(
        (match) =>
          (sport === undefined ? this.granted(principal, match.sport_id) : match.sport_id === sport) &&
          (league === undefined || match.league_id === league),
      );
  }

  odds(principal: Principal, matchId: number): MatchOdds {
    const sport = this.replica.matchSport(this.book.name, matchId);
    const snapshot = sport === undefined ? undefined : this.replica.snapshot(this.book.name, matchId);
    if (sport === undefined || !snapshot) throw new NotFoundException(`match not found: ${matchId}`);
    this.requireSport(principal, sport);
    return snapshot;
  }

  private granted(principal: Principal, sport: number): boolean {
    return principal.canSeeSportsbookSport(this.book.grant, sport);
  }

  private requireSport(principal: Principal, sport: number): void {
    const failure = sportsbookSportFailure(principal, this.book.grant, sport);
    if (failure) throw new AuthError(failure);
  }
}
