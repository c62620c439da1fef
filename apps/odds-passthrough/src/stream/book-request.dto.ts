import { FrameInteger } from '@app/streaming';

/** The body of `subscribe` and `unsubscribe` on `<prefix>/data`: `{"action": ..., "match": ID}`. */
export class MatchRequestDto {
  @FrameInteger()
  readonly match!: number;
}

/** The body of `subscribe_all`: every granted sport, or the one named by `sport`. */
export class AllMatchesRequestDto {
  @FrameInteger({ optional: true })
  readonly sport?: number;
}
