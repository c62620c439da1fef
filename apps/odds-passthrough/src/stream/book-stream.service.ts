import type { IncomingMessage } from 'node:http';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { allOf, AuthService, type Principal, Scope, toErrorResponse } from '@app/auth';
import { Clock } from '@app/clock';
import { type HandshakeRejection, type StreamConnection, StreamServer } from '@app/streaming';
import { BookView } from '../book/book-view';
import { oddsAuthError } from '../common/auth-messages';
import type { OddsEnv } from '../config/odds.env';
import { type BookFrameMeta, conflateBookFrames } from './book-frames';
import { BookSubscriptions } from './book-subscriptions';

/**
 * The price stream at `<prefix>/data` of every configured book, on api
 * replicas: changes the book view applies fan out to this replica's clients,
 * and a heartbeat tells them whether the feed itself is live.
 */
@Injectable()
export class BookStreamService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(BookStreamService.name);
  private readonly streams: BookSubscriptions[] = [];
  private detachChanges?: () => void;
  private detachKeyChanges?: () => void;
  private heartbeatTimer?: NodeJS.Timeout;

  constructor(
    private readonly config: ConfigService<OddsEnv, true>,
    private readonly auth: AuthService,
    private readonly view: BookView,
    private readonly server: StreamServer,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.get('ROLE', { infer: true }) === 'ingest') return;
    this.detachKeyChanges = this.auth.onKeysChanged(() => void this.server.revalidate());
    for (const book of this.view.books()) {
      const subscriptions = new BookSubscriptions(this.view, book.name, book.grant);
      this.streams.push(subscriptions);
      const access = { scopeRules: [allOf(Scope.Odds)], sportsbook: book.grant };
      this.server.register<Principal, BookFrameMeta>({
        path: `${book.prefix}/data`,
        authenticate: (request: IncomingMessage) => this.auth.authenticateUpgrade(request, access),
        reject: (error: unknown) => this.reject(error),
        accept: (connection) => this.accept(subscriptions, connection),
        conflate: conflateBookFrames,
        subscriptionCount: () => subscriptions.subscriptionCount,
      });
    }
    this.detachChanges = this.view.onChange((change, frame) => {
      for (const subscriptions of this.streams) subscriptions.publish(change, frame);
    });
    this.heartbeatTimer = setInterval(
      () => {
        const now = this.clock.now();
        for (const subscriptions of this.streams) subscriptions.heartbeat(now);
      },
      this.config.get('BOOK_HEARTBEAT_MS', { infer: true }),
    );
    this.heartbeatTimer.unref();
  }

  onApplicationShutdown(): void {
    this.detachKeyChanges?.();
    this.detachChanges?.();
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
  }

  private accept(
    subscriptions: BookSubscriptions,
    connection: StreamConnection<Principal, BookFrameMeta>,
  ): void {
    subscriptions.connect(connection);
    connection.onMessage((text) => subscriptions.handleFrame(connection, text));
    connection.onClose(() => subscriptions.disconnect(connection));
  }

  private reject(error: unknown): HandshakeRejection {
    const { status, message } = toErrorResponse(error, oddsAuthError, this.logger);
    return { status, body: { error: message } };
  }
}
