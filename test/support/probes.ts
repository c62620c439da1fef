import { Controller, Get, Query } from '@nestjs/common';
import {
  AuthError,
  CurrentPrincipal,
  type Principal,
  RequiresScopes,
  RequiresSportsbook,
  Scope,
  sportsbookSportFailure,
} from '@app/auth';

/**
 * Mounted in the real odds-passthrough application by tests, until its own
 * routes exist: the same guard, decorators and filter a book route will use.
 */
@Controller('v1/book/probe')
@RequiresSportsbook('book')
export class BookProbeController {
  @Get()
  @RequiresScopes(Scope.Odds)
  probe(@CurrentPrincipal() principal: Principal, @Query('sport') sport?: string): object {
    if (sport !== undefined) {
      const failure = sportsbookSportFailure(principal, 'book', Number(sport));
      if (failure) throw new AuthError(failure);
    }
    return { key: principal.keyId };
  }
}
