import { type DynamicModule, Module, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { UpstreamMonitor } from '@app/observability';
import type { BookSource } from '../config/books';
import type { OddsEnv } from '../config/odds.env';
import { BookChangeLogs } from './book-change-logs';
import { BookChangesController } from './book-changes.controller';
import { BOOK_SOURCES } from './book-sources';
import { BookStore } from './book-store';
import { BookView } from './book-view';
import { BOOK_VIEW_OPTIONS, type BookViewOptions, SharedBookView } from './shared-book-view';

/** The configured books, their shared state in PostgreSQL and the api side's view of it. */
@Module({})
export class BookModule implements OnModuleInit {
  constructor(
    private readonly view: BookView,
    private readonly upstream: UpstreamMonitor,
  ) {}

  /** Each book's feed health as this replica sees it (the rule the stream heartbeat uses). */
  onModuleInit(): void {
    for (const book of this.view.books()) {
      this.upstream.watchFeed(book.name, () => this.view.feedHealthy(book.name));
    }
  }

  static forRoot(books: readonly BookSource[]): DynamicModule {
    return {
      module: BookModule,
      global: true,
      controllers: [BookChangesController],
      providers: [
        { provide: BOOK_SOURCES, useValue: books },
        {
          provide: BOOK_VIEW_OPTIONS,
          inject: [ConfigService],
          useFactory: (config: ConfigService<OddsEnv, true>): BookViewOptions => ({
            enabled: config.get('ROLE', { infer: true }) !== 'ingest',
            pollMs: config.get('BOOK_POLL_MS', { infer: true }),
          }),
        },
        BookStore,
        BookChangeLogs,
        SharedBookView,
        { provide: BookView, useExisting: SharedBookView },
      ],
      exports: [BOOK_SOURCES, BookStore, BookChangeLogs, SharedBookView, BookView],
    };
  }
}
