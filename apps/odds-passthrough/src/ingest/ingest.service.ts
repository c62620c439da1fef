import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '@app/clock';
import { NatsEventClient } from '@app/messaging';
import { UpstreamMonitor } from '@app/observability';
import { BOOK_SOURCES, type BookSources } from '../book/book-sources';
import { BookStore } from '../book/book-store';
import type { OddsEnv } from '../config/odds.env';
import { BookPoller } from './book-poller';

/** One poller per configured book, started once the application is up. */
@Injectable()
export class IngestService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly pollers: BookPoller[];

  constructor(
    @Inject(BOOK_SOURCES) sources: BookSources,
    config: ConfigService<OddsEnv, true>,
    store: BookStore,
    events: NatsEventClient,
    clock: Clock,
    upstream: UpstreamMonitor,
  ) {
    const settings = {
      pollMs: config.get('BOOK_POLL_MS', { infer: true }),
      relistMs: config.get('BOOK_RELIST_MS', { infer: true }),
      timeoutMs: config.get('BOOK_TIMEOUT_MS', { infer: true }),
    };
    this.pollers = sources.map((source) => new BookPoller(source, settings, store, events, clock, upstream));
  }

  onApplicationBootstrap(): void {
    for (const poller of this.pollers) poller.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.pollers.map((poller) => poller.stop()));
  }
}
