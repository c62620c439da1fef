import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogReadCache } from './catalog-read-cache';
import { LeagueEntity } from './league.entity';
import { LeaguesController } from './leagues.controller';
import { LeaguesService } from './leagues.service';
import { MatchEntity } from './match.entity';
import { MatchesController } from './matches.controller';
import { MatchesService } from './matches.service';
import { SportEntity } from './sport.entity';
import { SportsController } from './sports.controller';
import { SportsService } from './sports.service';

@Module({
  imports: [TypeOrmModule.forFeature([SportEntity, LeagueEntity, MatchEntity])],
  controllers: [SportsController, LeaguesController, MatchesController],
  providers: [SportsService, LeaguesService, MatchesService, CatalogReadCache],
  exports: [LeaguesService, MatchesService, CatalogReadCache],
})
export class CatalogModule {}
