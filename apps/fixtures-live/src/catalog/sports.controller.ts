import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@app/auth';
import { SportDto } from './sport.dto';
import { SportsService } from './sports.service';

@ApiTags('catalog')
@ApiSecurity('api-key')
@Controller('sports')
export class SportsController {
  constructor(private readonly sports: SportsService) {}

  /** Any valid key; only the account's enabled sports, by id. */
  @Get()
  @ApiOperation({
    summary: "The account's enabled sports, by id (not paginated)",
    description: 'Any valid key may call it; no particular scope is needed.',
  })
  @ApiOkResponse({ type: [SportDto] })
  list(@CurrentPrincipal() principal: Principal): Promise<SportDto[]> {
    return this.sports.listVisible(principal.fixturesSports);
  }
}
