import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ChangeLog, DynamicSubjects, NatsLink } from '@app/messaging';
import type { OddsEnv } from '../config/odds.env';
import { BOOK_SOURCES, type BookSources } from './book-sources';

/**
 * One change log per sportsbook (`seq` is per book): every `update` frame the
 * book's ingest publishes, in a JetStream stream of its own. The ingest
 * appends to it; api replicas replay from it when a client resumes
 * (docs/adr/012-change-log-in-jetstream.md).
 */
@Injectable()
export class BookChangeLogs {
  private readonly logs = new Map<string, ChangeLog>();

  constructor(
    @Inject(BOOK_SOURCES) sources: BookSources,
    link: NatsLink,
    config: ConfigService<OddsEnv, true>,
  ) {
    const retentionMs = config.get('CHANGE_LOG_RETENTION_MS', { infer: true });
    for (const { name } of sources) {
      this.logs.set(
        name,
        new ChangeLog(link, {
          name: `ODDS_${name.toUpperCase()}`,
          subjects: DynamicSubjects.oddsLogOf(name),
          retentionMs,
        }),
      );
    }
  }

  of(book: string): ChangeLog {
    const log = this.logs.get(book);
    if (!log) throw new Error(`no book named ${book}`);
    return log;
  }
}
