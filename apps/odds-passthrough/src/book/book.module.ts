import { type DynamicModule, Module, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { UpstreamMonitor } from '@app/observability';
import type { BookSource } from '../config/books';
import type { OddsEnv } from '../config/odds.env';
import { BookChangeLogs } from './book-change-logs';
import { BookChangesController } from './book-changes.controller';
import { BookReadPort } from './book-read-port';
import { BOOK_SOURCES } from './book-sources';
import { BookRepository } from './book.repository';
import { REPLICA_BOOK_OPTIONS, type ReplicaBookOptions, ReplicaBookService } from './replica-book.service';

/**
 * The configured books, their shared state in PostgreSQL and the api side's
 * replica of it, read through BookReadPort (the service behind it is not
 * exported, so nothing can inject it instead).
 */
@Module({})
export class BookModule implements OnModuleInit {
  constructor(
    private readonly replica: BookReadPort,
    private readonly upstream: UpstreamMonitor,
  ) {}

  /** Each book's feed health as this replica sees it (the rule the stream heartbeat uses). */
  onModuleInit(): void {
    for (const book of this.replica.books()) {
      this.upstream.watchFeed(book.name, () => this.replica.feedHealthy(book.name));
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
          provide: REPLICA_BOOK_OPTIONS,
          inject: [ConfigService],
          useFactory: (config: ConfigService<OddsEnv, true>): ReplicaBookOptions => ({
            enabled: config.get('ROLE', { infer: true }) !== 'ingest',
            pollMs: config.get('BOOK_POLL_MS', { infer: true }),
          }),
        },
        BookRepository,
        BookChangeLogs,
        ReplicaBookService,
        { provide: BookReadPort, useExisting: ReplicaBookService },
      ],
      exports: [BOOK_SOURCES, BookRepository, BookChangeLogs, BookReadPort],
    };
  }
}
