import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '../catalog/catalog.module';
import { LeagueTeamEntity } from './league-team.entity';
import { TeamEntity } from './team.entity';
import { TeamsController } from './teams.controller';
import { TeamsService } from './teams.service';

@Module({
  imports: [TypeOrmModule.forFeature([TeamEntity, LeagueTeamEntity]), CatalogModule],
  controllers: [TeamsController],
  providers: [TeamsService],
})
export class TeamsModule {}
