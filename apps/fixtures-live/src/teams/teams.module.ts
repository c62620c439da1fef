import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { TeamsController } from './teams.controller';
import { TeamsService } from './teams.service';

@Module({
  imports: [CatalogModule],
  controllers: [TeamsController],
  providers: [TeamsService],
})
export class TeamsModule {}
