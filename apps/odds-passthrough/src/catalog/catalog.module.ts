import { type DynamicModule, Module } from '@nestjs/common';
import { AnswerFreshness, AnswerReplay, AnswerReplayDoor, AnswerReplayInterceptor } from '@app/auth';
import type { BookConfig } from '../book/book-read-port';
import { createBookController } from './book-controller.factory';
import { OddsAnswerFreshness } from './odds-answer-freshness';

/**
 * The REST routes of every configured book (not registered in ROLE=ingest),
 * and the replay of their odds answers at the front door (ADR 026).
 */
@Module({})
export class CatalogModule {
  static forBooks(books: readonly BookConfig[]): DynamicModule {
    return {
      module: CatalogModule,
      controllers: books.map(createBookController),
      providers: [
        OddsAnswerFreshness,
        { provide: AnswerFreshness, useExisting: OddsAnswerFreshness },
        { provide: AnswerReplay, useFactory: () => new AnswerReplay() },
        AnswerReplayInterceptor,
        AnswerReplayDoor,
      ],
      exports: [AnswerReplayDoor],
    };
  }
}
