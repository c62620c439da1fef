import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '../catalog/catalog.module';
import { ResultEntity } from './result.entity';
import { ResultsController } from './results.controller';
import { ResultsService } from './results.service';

@Module({
  imports: [TypeOrmModule.forFeature([ResultEntity]), CatalogModule],
  controllers: [ResultsController],
  providers: [ResultsService],
})
export class ResultsModule {}
