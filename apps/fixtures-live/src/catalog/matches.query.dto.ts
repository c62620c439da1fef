import {
  OptionalDateTime,
  OptionalOneOf,
  PageLimit,
  PageOffset,
  RequiredId,
} from '../common/query/query-parameter.decorators';
import { CATALOG_STATUSES, type CatalogStatus } from '../live/domain/snapshot.types';

// Properties are declared in the order their problems are reported.

/** `/matches`. */
export class MatchListQueryDto {
  @RequiredId('League id.')
  readonly league!: number | null;

  @OptionalOneOf(CATALOG_STATUSES, 'Default: all.')
  readonly status?: CatalogStatus;

  @OptionalDateTime('Start time at or after (UTC).')
  readonly start_after?: Date;

  @OptionalDateTime('Start time at or before (UTC).')
  readonly start_before?: Date;

  @PageLimit()
  readonly limit?: number;

  @PageOffset()
  readonly offset?: number;
}

/** `/matches/active` and `/teams`. */
export class LeaguePageQueryDto {
  @RequiredId('League id.')
  readonly league!: number | null;

  @PageLimit()
  readonly limit?: number;

  @PageOffset()
  readonly offset?: number;
}

/** `/matches/live`, not paged. */
export class LiveMatchesQueryDto {
  @RequiredId('Sport id.')
  readonly sport!: number | null;
}
