import { NotFoundException } from '@nestjs/common';
import type { Principal } from '@app/auth';
import type { MatchRecord, MatchesService } from './matches.service';

export const MATCH_NOT_FOUND = 'match not found';

/**
 * The match a path `match_id` names, when this key may see it. Unknown,
 * hidden and out-of-allowlist matches are all the same 404, never a 403;
 * so is an id no row can have (`null`).
 */
export async function visibleMatchOr404(
  matches: MatchesService,
  principal: Principal,
  id: number | null,
): Promise<MatchRecord> {
  const match = id === null ? null : await matches.findVisible(id);
  if (!match || !principal.canSeeFixturesSport(match.sport_id)) throw new NotFoundException(MATCH_NOT_FOUND);
  return match;
}
