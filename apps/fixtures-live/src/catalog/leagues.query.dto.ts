import { PageLimit, PageOffset, RequiredId } from '../common/query/query-parameter.decorators';

/** `/leagues` and `/leagues/active`. */
export class SportPageQueryDto {
  @RequiredId('Sport id from /sports.')
  readonly sport!: number | null;

  @PageLimit()
  readonly limit?: number;

  @PageOffset()
  readonly offset?: number;
}
