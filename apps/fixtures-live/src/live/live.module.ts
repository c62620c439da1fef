import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '../catalog/catalog.module';
import { DbLiveMatchDirectory } from './db-live-match-directory';
import { HeardLiveStates } from './heard-live-states';
import { LiveMatchDirectory } from './live-match-directory';
import { LiveSnapshotEntity } from './live-snapshot.entity';
import { LiveController } from './live.controller';
import { LiveSnapshotsService } from './live-snapshots.service';

@Module({
  imports: [TypeOrmModule.forFeature([LiveSnapshotEntity]), CatalogModule],
  controllers: [LiveController],
  providers: [
    LiveSnapshotsService,
    HeardLiveStates,
    { provide: LiveMatchDirectory, useClass: DbLiveMatchDirectory },
  ],
  exports: [LiveMatchDirectory, LiveSnapshotsService, HeardLiveStates],
})
export class LiveModule {}
