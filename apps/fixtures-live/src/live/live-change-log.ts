import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ChangeLog, DynamicSubjects, NatsLink } from '@app/messaging';
import type { FixturesEnv } from '../config/fixtures.env';

/**
 * fixtures-live's change log: every published live state of every match, in
 * one JetStream stream, so `seq` grows across matches. The ingest appends to
 * it; api replicas replay from it when a client resumes.
 */
@Injectable()
export class LiveChangeLog extends ChangeLog {
  constructor(link: NatsLink, config: ConfigService<FixturesEnv, true>) {
    super(link, {
      name: 'FIXTURES_LIVE',
      subjects: DynamicSubjects.fixturesLogAll,
      retentionMs: config.get('CHANGE_LOG_RETENTION_MS', { infer: true }),
    });
  }
}
