import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '@app/clock';
import { NatsEventClient, NatsLink } from '@app/messaging';
import { UpstreamMonitor } from '@app/observability';
import { BookChangeLogs } from '../book/book-change-logs';
import { BOOK_SOURCES, type BookSources } from '../book/book-sources';
import { BookRepository } from '../book/book.repository';
import type { OddsEnv } from '../config/odds.env';
import { BookPollSchedule } from './book-poll-schedule';

/** One poll schedule per configured book, started once the application is up. */
@Injectable()
export class IngestService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly pollers: BookPollSchedule[];
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
  ) {
    const settings = {
      pollMs: config.get('BOOK_POLL_MS', { infer: true }),
      relistMs: config.get('BOOK_RELIST_MS', { infer: true }),
      timeoutMs: config.get('BOOK_TIMEOUT_MS', { infer: true }),
    };
    this.pollers = sources.map(
      (source) =>
        new BookPollSchedule(source, settings, repository, events, clock, upstream, logs.of(source.name)),
    );
  }

  onApplicationBootstrap(): void {
    for (const poller of this.pollers) poller.start();
    this.detachReconnect = this.nats.onReconnect(() => {
      for (const poller of this.pollers) poller.natsReconnected();
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.detachReconnect?.();
    await Promise.all(this.pollers.map((poller) => poller.stop()));
  }
}
