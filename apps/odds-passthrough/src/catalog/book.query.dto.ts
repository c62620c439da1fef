import { BookId } from './book-id.decorator';

// Properties are declared in the order their problems are reported.

/** `<prefix>/leagues`. */
export class BookLeaguesQueryDto {
  @BookId({ required: false })
  readonly sport?: number;
}

/** `<prefix>/matches`. */
export class BookMatchesQueryDto {
  @BookId({ required: false })
  readonly sport?: number;

  @BookId({ required: false })
  readonly league?: number;
}

/** `<prefix>/odds`. */
export class BookOddsQueryDto {
  @BookId({ required: true })
  readonly match!: number;
}
