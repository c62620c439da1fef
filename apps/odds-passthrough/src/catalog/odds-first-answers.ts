import {
  type AccessRequirement,
  decideAccess,
  FirstAnswers,
  type Principal,
  type RecordedAnswer,
} from '@app/auth';
import type { Clock } from '@app/clock';
import type { BookConfig } from '../book/book-read-port';
import type { BookCatalog } from './book-catalog';
import type { BookCatalogs } from './book-catalogs';
import { readBookId } from './book-id';

/** The type `GET <prefix>/odds` is sent with (the route's `@Header`). */
export const ODDS_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A book's odds route as its controller declares it. */
export interface OddsRouteAccess {
  readonly book: BookConfig;
  /** What the route's decorators demand of a key (`oddsRouteAccess`). */
  readonly requirement: AccessRequirement;
}

interface OddsRoute {
  readonly catalog: BookCatalog;
  readonly requirement: AccessRequirement;
  /** Express's matched route as the request metrics read it. */
  readonly route: { readonly path: string };
}

/**
 * `GET <prefix>/odds?match=<id>` answered at the front door the first time a
 * key asks (ADR 027): a client walking the book match by match, the
 * big book's completeness check or a replica's first minute, asks for each
 * match once, and Express's router with Nest's guard, pipe and handler cost
 * more than the answer. Only the plain form is claimed (the one parameter,
 * an id as the route reads it, no key in the query); anything else, and any
 * request the route would refuse, goes to the full pipeline.
 */
export class OddsFirstAnswers extends FirstAnswers {
  private readonly routes: ReadonlyMap<string, OddsRoute>;

  constructor(
    routes: readonly OddsRouteAccess[],
    catalogs: BookCatalogs,
    private readonly clock: Clock,
  ) {
    super();
    this.routes = new Map(
      routes.map(({ book, requirement }) => {
        const path = `${book.prefix}/odds`;
        return [path, { catalog: catalogs.of(book), requirement, route: { path } }];
      }),
    );
  }

  claims(url: string): boolean {
    return this.target(url) !== undefined;
  }

  answer(url: string, principal: Principal): RecordedAnswer | undefined {
    const target = this.target(url);
    if (target === undefined) return undefined;
    const { route, matchId } = target;
    if (decideAccess(principal, route.requirement, this.clock.now()) !== null) return undefined;
    const json = route.catalog.grantedOdds(principal, matchId);
    return json && { json, contentType: ODDS_CONTENT_TYPE, route: route.route };
  }

  private target(url: string): { route: OddsRoute; matchId: number } | undefined {
    const query = url.indexOf('?');
    if (query < 0 || !url.startsWith('match=', query + 1)) return undefined;
    const route = this.routes.get(url.slice(0, query));
    const matchId = readBookId(url.slice(query + 7));
    return route && matchId !== undefined ? { route, matchId } : undefined;
  }
}
