import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, type NatsContext, Payload } from '@nestjs/microservices';
import type { MsgHdrs } from 'nats';
import { DynamicSubjects, type FeedHealthEvent, positionOf, Subjects } from '@app/messaging';
import { LiveStreamService } from './live-stream.service';

/**
 * Live states the ingest publishes, one subject per match; the bytes are the
 * snapshot JSON, the headers its change-log position.
 */
@Controller()
export class LiveChangesController {
  constructor(private readonly live: LiveStreamService) {}

  @EventPattern(DynamicSubjects.fixturesLiveAll)
  onLiveChange(@Payload() data: Uint8Array, @Ctx() context: NatsContext): void {
    const meta = context.getHeaders() as MsgHdrs | undefined;
    this.live.onLiveChange(context.getSubject(), data, positionOf(meta));
  }

  @EventPattern(Subjects.fixturesFeedHealth)
  onFeedHealth(@Payload() event: FeedHealthEvent): void {
    this.live.onFeedHealth(event);
  }
}
