import { NotFoundException } from '@nestjs/common';
import { AuthError, type Principal, sportsbookSportFailure } from '@app/auth';
import type { PreparedJson } from '@app/http-edge';
import type { LeagueInfo, MatchInfo, SportInfo } from '../book/book-messages';
import type { BookConfig, BookReadPort } from '../book/book-read-port';
import type { OddsAnswerFreshness } from './odds-answer-freshness';
import { OddsAnswers } from './odds-answers';

/**
 * The grant rules of the REST routes: lists are filtered to the key's granted
 * sports, an explicitly named sport (by `?sport=` or through a match) that is
 * not granted is refused.
 */
export class BookCatalog {
  private readonly answers: OddsAnswers;

  constructor(
    private readonly replica: BookReadPort,
    private readonly book: BookConfig,
    freshness: OddsAnswerFreshness,
  ) {
    this.answers = new OddsAnswers(
      (matchId) => replica.snapshot(book.name, matchId),
      (json, stillCurrent) => freshness.track(json, stillCurrent),
    );
  }

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

  /** The match's selections as `MatchOdds` JSON, serialised once per state of the match. */
  odds(principal: Principal, matchId: number): PreparedJson {
    const sport = this.replica.matchSport(this.book.name, matchId);
    const snapshot = sport === undefined ? undefined : this.replica.snapshot(this.book.name, matchId);
    if (sport === undefined || !snapshot) throw new NotFoundException(`match not found: ${matchId}`);
    this.requireSport(principal, sport);
    return this.answers.answer(snapshot);
  }

  /** `odds` where it answers, for the front door; `undefined` where it refuses, so the route refuses. */
  grantedOdds(principal: Principal, matchId: number): PreparedJson | undefined {
    const sport = this.replica.matchSport(this.book.name, matchId);
    if (sport === undefined || !this.granted(principal, sport)) return undefined;
    const snapshot = this.replica.snapshot(this.book.name, matchId);
    return snapshot ? this.answers.answer(snapshot) : undefined;
  }

  private granted(principal: Principal, sport: number): boolean {
    return principal.canSeeSportsbookSport(this.book.grant, sport);
  }

  private requireSport(principal: Principal, sport: number): void {
    const failure = sportsbookSportFailure(principal, this.book.grant, sport);
    if (failure) throw new AuthError(failure);
  }
}
