import { Controller, Get, Header, Query, type Type, UseInterceptors } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiBadRequestResponse,
  ApiSecurity,
  ApiServiceUnavailableResponse,
  ApiTooManyRequestsResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import {
  type AccessRequirement,
  AnswerReplayInterceptor,
  CurrentPrincipal,
  type Principal,
  Public,
  RequiresScopes,
  RequiresSportsbook,
  routeAccess,
  Scope,
} from '@app/auth';
import type { PreparedJson } from '@app/http-edge';
import type { LeagueInfo, MatchInfo, SportInfo } from '../book/book-messages';
import type { BookConfig } from '../book/book-read-port';
import type { BookCatalog } from './book-catalog';
import { BookCatalogs } from './book-catalogs';
import { ODDS_CONTENT_TYPE } from './odds-first-answers';
import { ErrorDto, LeagueDto, MatchDto, MatchOddsDto, RouteListDto, SportDto } from './book.dto';
import { BookLeaguesQueryDto, BookMatchesQueryDto, BookOddsQueryDto } from './book.query.dto';

export const API_KEY_SECURITY = 'api-key';

/** The routes a book serves, for its route list. */
export function bookRoutes(book: BookConfig): { method: string; path: string; description: string }[] {
  return [
    { method: 'GET', path: `${book.prefix}/`, description: 'this list; no key' },
    { method: 'GET', path: `${book.prefix}/sports`, description: 'granted sports, ascending by id' },
    { method: 'GET', path: `${book.prefix}/leagues`, description: 'leagues; optional sport' },
    { method: 'GET', path: `${book.prefix}/matches`, description: 'matches; optional sport and league' },
    { method: 'GET', path: `${book.prefix}/odds`, description: 'selections of one match; match required' },
    { method: 'WS', path: `${book.prefix}/data`, description: 'live price stream' },
    { method: 'GET', path: `${book.prefix}/docs`, description: 'OpenAPI description; no key' },
  ];
}

/** What a book controller's `odds` route demands of a key, read from its decorators as the guard reads them. */
export function oddsRouteAccess(controller: Type): AccessRequirement {
  const prototype = controller.prototype as { odds: () => unknown };
  return routeAccess(new Reflector(), [prototype.odds, controller]);
}

/**
 * One controller class per configured book, so each book has its own prefix
 * and grant while sharing the code. Nest registers routes per class, hence a
 * class built at module creation rather than a router resolving prefixes.
 */
export function createBookController(book: BookConfig): Type {
  @ApiTags(book.name)
  @ApiSecurity(API_KEY_SECURITY)
  @ApiUnauthorizedResponse({ type: ErrorDto, description: 'invalid or inactive API key' })
  @ApiForbiddenResponse({
    type: ErrorDto,
    description: `missing required scope: odds / API key not permitted for sportsbook: ${book.grant} / API key not permitted for sport <id>`,
  })
  @ApiTooManyRequestsResponse({ type: ErrorDto, description: 'rate limit exceeded' })
  @ApiServiceUnavailableResponse({ type: ErrorDto, description: 'auth backend unavailable' })
  @Controller(book.prefix.slice(1))
  @RequiresScopes(Scope.Odds)
  @RequiresSportsbook(book.grant)
  class BookController {
    private readonly catalog: BookCatalog;

    constructor(catalogs: BookCatalogs) {
      this.catalog = catalogs.of(book);
    }

    @Public()
    @Get()
    @ApiOperation({ summary: 'Route list of this book, for checking host and prefix. No key needed.' })
    @ApiOkResponse({ type: RouteListDto })
    routes(): RouteListDto {
      return { book: book.name, routes: bookRoutes(book) };
    }

    @Get('sports')
    @ApiOperation({
      summary:
        'Sports currently ingested that the key is granted, ascending by id. Empty while the book is cold.',
    })
    @ApiOkResponse({ type: [SportDto] })
    sports(@CurrentPrincipal() principal: Principal): SportInfo[] {
      return this.catalog.sports(principal);
    }

    @Get('leagues')
    @ApiOperation({
      summary: 'Leagues by id. Without sport: those of granted sports. A sport that is not granted: 403.',
    })
    @ApiOkResponse({ type: [LeagueDto] })
    @ApiBadRequestResponse({ type: ErrorDto, description: 'invalid parameter: sport' })
    leagues(@CurrentPrincipal() principal: Principal, @Query() query: BookLeaguesQueryDto): LeagueInfo[] {
      return this.catalog.leagues(principal, query.sport);
    }

    @Get('matches')
    @ApiOperation({
      summary:
        'Matches by start time, then id. Without sport: those of granted sports (also with league). A sport that is not granted: 403.',
    })
    @ApiOkResponse({ type: [MatchDto] })
    @ApiBadRequestResponse({
      type: ErrorDto,
      description: 'invalid parameter: sport / invalid parameter: league',
    })
    matches(@CurrentPrincipal() principal: Principal, @Query() query: BookMatchesQueryDto): MatchInfo[] {
      return this.catalog.matches(principal, query.sport, query.league);
    }

    @Get('odds')
    // Set before the handler runs, so the replay interceptor records the type it will be sent with.
    @Header('Content-Type', ODDS_CONTENT_TYPE)
    @UseInterceptors(AnswerReplayInterceptor)
    @ApiOperation({
      summary:
        "Every selection of a match with status evaluated at the moment of the response, and the match's ts. A match of a sport that is not granted: 403 naming the sport.",
    })
    @ApiOkResponse({ type: MatchOddsDto })
    @ApiBadRequestResponse({ type: ErrorDto, description: 'invalid parameter: match' })
    @ApiNotFoundResponse({ type: ErrorDto, description: 'match not found: <id>' })
    odds(@CurrentPrincipal() principal: Principal, @Query() query: BookOddsQueryDto): PreparedJson {
      return this.catalog.odds(principal, query.match);
    }
  }
  Object.defineProperty(BookController, 'name', { value: `BookController_${book.name}` });
  return BookController;
}
