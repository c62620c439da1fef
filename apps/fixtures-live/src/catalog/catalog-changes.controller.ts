import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
import { Subjects } from '@app/messaging';
import { CatalogReadCache } from './catalog-read-cache';

/** Catalog notices from the ingest, heard by every replica. */
@Controller()
export class CatalogChangesController {
  constructor(private readonly cache: CatalogReadCache) {}

  @EventPattern(Subjects.fixturesCatalogChanged)
  onCatalogChanged(): void {
    this.cache.clear();
  }
}
