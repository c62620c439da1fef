import { FrameInteger } from '@app/streaming';

/** The body of `subscribe` and `unsubscribe` on `<prefix>/data`: `{"action": ..., "match": ID}`. */
export class MatchRequestDto {
  @FrameInteger()
  readonly match!: number;
}

/** Where a subscription starts (`resume_after`) and how often it sends (`conflate_ms`). */
class FollowRequestDto {
  /** Changes after this `seq` are replayed when still retained; else snapshots, as without it. */
  @FrameInteger({ optional: true })
  readonly resume_after?: number;

  /** At most one frame per match per this many ms, changes merged; 0 (default) sends every change. */
  @FrameInteger({ optional: true, min: 0, max: 10_000 })
  readonly conflate_ms?: number;
}

/** The body of `subscribe`: a match, from a position and at a pace when asked. */
export class SubscribeRequestDto extends FollowRequestDto {
  @FrameInteger()
  readonly match!: number;
}

/** The body of `subscribe_all`: every granted sport, or the one named by `sport`. */
export class AllMatchesRequestDto extends FollowRequestDto {
  @FrameInteger({ optional: true })
  readonly sport?: number;
}
