import { type DynamicModule, Module } from '@nestjs/common';
import {
  AnswerFreshness,
  AnswerReplay,
  AnswerReplayDoor,
  AnswerReplayInterceptor,
  FirstAnswers,
} from '@app/auth';
import { Clock } from '@app/clock';
import { type BookConfig, BookReadPort } from '../book/book-read-port';
import { BookCatalogs } from './book-catalogs';
import { createBookController, oddsRouteAccess } from './book-controller.factory';
import { OddsAnswerFreshness } from './odds-answer-freshness';
import { OddsFirstAnswers } from './odds-first-answers';

/**
 * Bytes of odds answers the replay holds. Nothing else keeps them (the
 * catalog's own answers last a second), and one match's answer weighs tens of
 * kilobytes: a client that walked a book of 2,500 matches once left 43 MB of
 * answers held, stale as soon as their matches changed. The keys that poll
 * the same matches again and again, which the replay is for, need far less.
 */
const REPLAY_BYTES = 16 * 1024 * 1024;

/**
 * The REST routes of every configured book (not registered in ROLE=ingest),
 * and their odds answers at the front door: replayed (ADR 026) and, in their
 * plain form, answered there the first time too (ADR 027).
 */
@Module({})
export class CatalogModule {
  static forBooks(books: readonly BookConfig[]): DynamicModule {
    const controllers = books.map(createBookController);
    const oddsRoutes = books.map((book, i) => ({ book, requirement: oddsRouteAccess(controllers[i]) }));
    return {
      module: CatalogModule,
      controllers,
      providers: [
        OddsAnswerFreshness,
        { provide: AnswerFreshness, useExisting: OddsAnswerFreshness },
        { provide: AnswerReplay, useFactory: () => new AnswerReplay({ maxBytes: REPLAY_BYTES }) },
        {
          provide: BookCatalogs,
          useFactory: (replica: BookReadPort, freshness: OddsAnswerFreshness) =>
            new BookCatalogs(books, replica, freshness),
          inject: [BookReadPort, OddsAnswerFreshness],
        },
        {
          provide: FirstAnswers,
          useFactory: (catalogs: BookCatalogs, clock: Clock) =>
            new OddsFirstAnswers(oddsRoutes, catalogs, clock),
          inject: [BookCatalogs, Clock],
        },
        AnswerReplayInterceptor,
        AnswerReplayDoor,
      ],
      exports: [AnswerReplayDoor],
    };
  }
}
