import { Module } from '@nestjs/common';
import { CatalogChangeNotifier } from './catalog-change-notifier';
import { CatalogPoller } from './catalog-poller.service';
import { CatalogStore } from './catalog-store';
import { IngestService } from './ingest.service';
import { KitResolver } from './kit-resolver.service';
import { LiveIngestService } from './live-ingest.service';
import { LiveWriter } from './live-writer';
import { LivescoresClient } from './livescores-client';
import { MatchRegistry } from './match-registry';

/** Reads the provider, stores and publishes (idle in ROLE `api`). */
@Module({
  providers: [
    LivescoresClient,
    CatalogChangeNotifier,
    CatalogStore,
    CatalogPoller,
    MatchRegistry,
    LiveWriter,
    LiveIngestService,
    KitResolver,
    IngestService,
  ],
  exports: [IngestService],
})
export class IngestModule {}
