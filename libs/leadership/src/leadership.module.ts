import { Global, Module } from '@nestjs/common';
import { IngestLeadership } from './ingest-leadership';

@Global()
@Module({ providers: [IngestLeadership], exports: [IngestLeadership] })
export class LeadershipModule {}
