import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, type NatsContext, Payload } from '@nestjs/microservices';
import { bookOfSubject, DynamicSubjects, NatsLink, unqualifySubject } from '@app/messaging';
import { ReplicaBookService } from './replica-book.service';

/**
 * What the odds ingests publish, for every book; the subject names the book.
 * The one caller of the replica service itself: it feeds the replica, where
 * every reader goes through BookReadPort.
 */
@Controller()
export class BookChangesController {
  constructor(
    private readonly replica: ReplicaBookService,
    private readonly nats: NatsLink,
  ) {}

  @EventPattern(DynamicSubjects.oddsChangesAny)
  onMatchChanges(@Payload() data: Uint8Array, @Ctx() context: NatsContext): void {
    this.replica.onMatchChanges(this.bookOf(context), data);
  }

  @EventPattern(DynamicSubjects.oddsCatalogAny)
  onCatalogChange(@Payload() data: Uint8Array, @Ctx() context: NatsContext): void {
    this.replica.onCatalogChange(this.bookOf(context), data);
  }

  @EventPattern(DynamicSubjects.oddsHealthAny)
  onFeedHealth(@Payload() data: Uint8Array, @Ctx() context: NatsContext): void {
    this.replica.onFeedHealth(this.bookOf(context), data);
  }

  private bookOf(context: NatsContext): string {
    return bookOfSubject(unqualifySubject(this.nats.subjectPrefix, context.getSubject()));
  }
}
