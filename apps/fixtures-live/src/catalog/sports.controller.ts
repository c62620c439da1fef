import { Controller, Get } from '@nestjs/common';
import { CurrentPrincipal, type Principal } from '@app/auth';
import type { SportDto } from './sport.dto';
import { SportsService } from './sports.service';

@Controller('sports')
export class SportsController {
  constructor(private readonly sports: SportsService) {}

  /** Any valid key; only the account's enabled sports, by id. */
  @Get()
  list(@CurrentPrincipal() principal: Principal): Promise<SportDto[]> {
    return this.sports.listVisible(principal.fixturesSports);
  }
}
