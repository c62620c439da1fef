import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SportEntity } from './sport.entity';
import { SportsController } from './sports.controller';
import { SportsService } from './sports.service';

@Module({
  imports: [TypeOrmModule.forFeature([SportEntity])],
  controllers: [SportsController],
  providers: [SportsService],
})
export class CatalogModule {}
