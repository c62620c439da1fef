import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AuthService } from '@app/auth';
import { StreamServer } from '@app/streaming';
import { BookView } from '../book/book-view';
import { BookSubscriptions } from './book-subscriptions';

/**
 * The fan-out behind every book's price stream on api replicas: changes the
 * book view applies reach the book's subscriptions, and a key that changes is
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
    private readonly view: BookView,
    private readonly server: StreamServer,
  ) {
    for (const book of view.books())
      this.streams.set(book.name, new BookSubscriptions(view, book.name, book.grant));
  }

  /** The subscriptions of a configured book. */
  subscriptionsOf(book: string): BookSubscriptions {
    const subscriptions = this.streams.get(book);
    if (!subscriptions) throw new Error(`no book named ${book}`);
    return subscriptions;
  }

  onApplicationBootstrap(): void {
    this.detachKeyChanges = this.auth.onKeysChanged(() => void this.server.revalidate());
    this.detachChanges = this.view.onChange((change, frame) => {
      for (const subscriptions of this.streams.values()) subscriptions.publish(change, frame);
    });
  }

  onApplicationShutdown(): void {
    this.detachKeyChanges?.();
    this.detachChanges?.();
  }
}
