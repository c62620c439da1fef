import { Module } from '@nestjs/common';
import { LeadershipModule } from '@app/leadership';
import { LiveChangeLog } from '../live/live-change-log';
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

/**
 * Reads the provider, stores and publishes (ROLE `ingest` and `all`). It
 * appends to the change log through its own handle on it; the api side's
 * LiveModule has another, for replays.
 */
@Module({
  imports: [LeadershipModule],
  controllers: [KitRequestsController],
  providers: [
    LivescoresClient,
    CatalogChangeNotifier,
    CatalogStore,
    CatalogPoller,
    MatchRegistry,
    LiveWriter,
    LiveChangeLog,
    LiveChangePublisher,
    LiveIngestService,
    KitResolver,
    IngestService,
  ],
  exports: [IngestService],
})
export class IngestModule {}
