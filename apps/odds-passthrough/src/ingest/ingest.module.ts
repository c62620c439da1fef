import { Module } from '@nestjs/common';
import { LeadershipModule } from '@app/leadership';
import { IngestService } from './ingest.service';

/** Reads every configured sportsbook (ROLE ingest or all). */
@Module({ imports: [LeadershipModule], providers: [IngestService] })
export class IngestModule {}
