import { Module } from '@nestjs/common';
import { CatalogModule } from '../catalog/catalog.module';
import { DbLiveMatchDirectory } from './db-live-match-directory';
import { HeardLiveStates } from './heard-live-states';
import { LiveChangeLog } from './live-change-log';
import { LiveMatchDirectory } from './live-match-directory';
import { LiveController } from './live.controller';
import { LiveSnapshotsService } from './live-snapshots.service';

@Module({
  imports: [CatalogModule],
  controllers: [LiveController],
  providers: [
    LiveSnapshotsService,
    HeardLiveStates,
    LiveChangeLog,
    { provide: LiveMatchDirectory, useClass: DbLiveMatchDirectory },
  ],
  exports: [LiveMatchDirectory, LiveSnapshotsService, HeardLiveStates, LiveChangeLog],
})
export class LiveModule {}
