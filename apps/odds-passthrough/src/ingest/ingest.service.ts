import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '@app/clock';
import { IngestLeadership } from '@app/leadership';
import { NatsEventClient, NatsLink } from '@app/messaging';
import { UpstreamMonitor } from '@app/observability';
import { BookChangeLogs } from '../book/book-change-logs';
import { BOOK_SOURCES, type BookSources } from '../book/book-sources';
import { BookRepository } from '../book/book.repository';
import type { OddsEnv } from '../config/odds.env';
import { BookPollSchedule } from './book-poll-schedule';

/** The lease of one book's ingest: per sportsbook, so books may be led by different processes. */
export function bookLeaseKey(book: string): string {
  return `odds-passthrough.${book}`;
}

/**
 * One poll schedule per configured book, running while this process holds
 * that book's ingest lease; a standby process polls nothing until it takes
 * the lease over (the schedule then seeds from storage as at a start).
 */
@Injectable()
export class IngestService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly pollers: { readonly book: string; readonly schedule: BookPollSchedule }[];
  private detachReconnect?: () => void;

  constructor(
    @Inject(BOOK_SOURCES) sources: BookSources,
    config: ConfigService<OddsEnv, true>,
    repository: BookRepository,
    events: NatsEventClient,
    clock: Clock,
    upstream: UpstreamMonitor,
    logs: BookChangeLogs,
    private readonly nats: NatsLink,
    private readonly leadership: IngestLeadership,
  ) {
    const settings = {
      pollMs: config.get('BOOK_POLL_MS', { infer: true }),
      relistMs: config.get('BOOK_RELIST_MS', { infer: true }),
      timeoutMs: config.get('BOOK_TIMEOUT_MS', { infer: true }),
    };
    this.pollers = sources.map((source) => ({
      book: source.name,
      schedule: new BookPollSchedule(
        source,
        settings,
        repository,
        events,
        clock,
        upstream,
        logs.of(source.name),
        {
          holds: () => leadership.holds(bookLeaseKey(source.name)),
          carryOnProbe: (write) => leadership.carryOnProbe(bookLeaseKey(source.name), write),
        },
      ),
    }));
  }

  onApplicationBootstrap(): void {
    for (const { book, schedule } of this.pollers) {
      this.leadership.lead(bookLeaseKey(book), [book], {
        activate: () => schedule.start(),
        deactivate: () => schedule.stop(),
      });
    }
    this.detachReconnect = this.nats.onReconnect(() => {
      for (const { schedule } of this.pollers) schedule.natsReconnected();
    });
  }

  /** The leases stop the schedules they hold and hand over (IngestLeadership). */
  beforeApplicationShutdown(): void {
    this.detachReconnect?.();
  }
}
