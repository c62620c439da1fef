import { FrameInteger } from '@app/streaming';

/** The body of `unsubscribe` on /stream: `{"action": ..., "match_id": <integer>}`. */
export class MatchRequestDto {
  @FrameInteger()
  readonly match_id!: number;
}

/** The body of `subscribe`: a match, and optionally the change-log position the client holds for it. */
export class SubscribeRequestDto extends MatchRequestDto {
  /** Changes after this `seq` are replayed when still retained; else a snapshot, as without it. */
  @FrameInteger({ optional: true })
  readonly resume_after?: number;

  /** At most one frame of the match per this many ms, with the newest state; 0 (default) sends every change. */
  @FrameInteger({ optional: true, min: 0, max: 10_000 })
  readonly conflate_ms?: number;
}
