import { Module } from '@nestjs/common';
import { IngestService } from './ingest.service';

/** Reads every configured sportsbook (ROLE ingest or all). */
@Module({ providers: [IngestService] })
export class IngestModule {}
