import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { ResultsController } from './results.controller';
import { ResultsService } from './results.service';

@Module({
  imports: [CatalogModule],
  controllers: [ResultsController],
  providers: [ResultsService],
})
export class ResultsModule {}
