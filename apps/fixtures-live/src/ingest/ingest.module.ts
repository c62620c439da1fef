import { Module } from '@nestjs/common';
import { LiveModule } from '../live/live.module';
import { CatalogChangeNotifier } from './catalog-change-notifier';
import { CatalogPoller } from './catalog-poller.service';
import { CatalogStore } from './catalog-store';
import { IngestService } from './ingest.service';
import { KitRequestsController } from './kit-requests.controller';
import { KitResolver } from './kit-resolver.service';
import { LiveChangePublisher } from './live-change-publisher';
import { LiveIngestService } from './live-ingest.service';
import { LiveWriter } from './live-writer';
import { LivescoresClient } from './livescores-client';
import { MatchRegistry } from './match-registry';

/** Reads the provider, stores and publishes (idle in ROLE `api`). */
@Module({
  imports: [LiveModule],
  controllers: [KitRequestsController],
  providers: [
    LivescoresClient,
    CatalogChangeNotifier,
    CatalogStore,
    CatalogPoller,
    MatchRegistry,
    LiveWriter,
    LiveChangePublisher,
    LiveIngestService,
    KitResolver,
    IngestService,
  ],
  exports: [IngestService],
})
export class IngestModule {}
