import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AuthService } from '@app/auth';
import { StreamServer } from '@app/streaming';
import { Clock } from '@app/clock';
import { DynamicSubjects } from '@app/messaging';
import { BookChangeLogs } from '../book/book-change-logs';
import { BookReadPort } from '../book/book-read-port';
import type { OddsEnv } from '../config/odds.env';
import { type BookReplay, BookSubscriptions } from './book-subscriptions';

/**
 * The fan-out behind every book's price stream on api replicas: changes the
 * book replica applies reach the book's subscriptions, and a key that changes is
 * checked again on every open socket. The per-book gateways own the sockets
 * and their heartbeats.
 */
@Injectable()
export class BookStreamService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly streams = new Map<string, BookSubscriptions>();
  private detachChanges?: () => void;
  private detachKeyChanges?: () => void;

  constructor(
    private readonly auth: AuthService,
    private readonly replica: BookReadPort,
    private readonly server: StreamServer,
    logs: BookChangeLogs,
    clock: Clock,
    config: ConfigService<OddsEnv, true>,
  ) {
    const maxPerSocket = config.get('STREAM_MAX_SUBSCRIPTIONS', { infer: true });
    for (const book of replica.books()) {
      const log = logs.of(book.name);
      const replay: BookReplay = (scope, afterSeq) =>
        log.replay(
          scope.matchId === undefined
            ? DynamicSubjects.oddsLogOf(book.name, scope.sportId)
            : DynamicSubjects.oddsLog(book.name, scope.sportId, scope.matchId),
          afterSeq,
        );
      this.streams.set(
        book.name,
        new BookSubscriptions(replica, book.name, book.grant, replay, () => clock.now(), maxPerSocket),
      );
    }
  }

  /** The subscriptions of a configured book. */
  subscriptionsOf(book: string): BookSubscriptions {
    const subscriptions = this.streams.get(book);
    if (!subscriptions) throw new Error(`no book named ${book}`);
    return subscriptions;
  }

  onApplicationBootstrap(): void {
    this.detachKeyChanges = this.auth.onKeysChanged(() => void this.server.revalidate());
    this.detachChanges = this.replica.onChange((change, frame, position) => {
      for (const subscriptions of this.streams.values()) subscriptions.publish(change, frame, position);
    });
  }

  onApplicationShutdown(): void {
    this.detachKeyChanges?.();
    this.detachChanges?.();
  }
}
