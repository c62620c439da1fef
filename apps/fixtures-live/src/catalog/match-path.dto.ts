import { RequiredId } from '../common/query/query-parameter.decorators';

/** `/matches/{match_id}` and the routes below it. */
export class MatchPathDto {
  @RequiredId()
  readonly match_id!: number | null;
}
