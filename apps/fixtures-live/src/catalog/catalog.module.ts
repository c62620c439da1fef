import { Module } from '@nestjs/common';
import { AnswerFreshness, AnswerReplay, AnswerReplayDoor, AnswerReplayInterceptor } from '@app/auth';
import { CatalogChangesController } from './catalog-changes.controller';
import { CatalogReadCache } from './catalog-read-cache';
import { LeaguesController } from './leagues.controller';
import { LeaguesService } from './leagues.service';
import { MatchesController } from './matches.controller';
import { MatchesService } from './matches.service';
import { SportsController } from './sports.controller';
import { SportsService } from './sports.service';

@Module({
  controllers: [SportsController, LeaguesController, MatchesController, CatalogChangesController],
  providers: [
    SportsService,
    LeaguesService,
    MatchesService,
    CatalogReadCache,
    { provide: AnswerFreshness, useExisting: CatalogReadCache },
    { provide: AnswerReplay, useFactory: () => new AnswerReplay() },
    AnswerReplayInterceptor,
    AnswerReplayDoor,
  ],
  exports: [LeaguesService, MatchesService, CatalogReadCache, AnswerReplayDoor],
})
export class CatalogModule {}
