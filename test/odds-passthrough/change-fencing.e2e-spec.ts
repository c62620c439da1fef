import type { Logger } from '@nestjs/common';
import { type ChangePosition, DynamicSubjects, type NatsLink } from '@app/messaging';
import { BookChangePublisher } from '../../apps/odds-passthrough/src/ingest/book-change-publisher';
import {
  connectUnderOwnPrefix,
  dropLog,
  PausableChangeLog,
  recordingEvents,
} from '../support/pausable-change-log';

const BOOK = 'fence';
const SPORT = 29;

/** A publication's position without its match. */
const positionIn = ({ seq, prevSeq }: ChangePosition): ChangePosition => ({ seq, prevSeq });

/** One ingest process's publisher of the book, on the shared log, with what it emitted and warned. */
function ingest(log: PausableChangeLog, mayPublish: () => boolean) {
  const { events, emitted } = recordingEvents();
  const warnings: string[] = [];
  const logger = {
    log: () => undefined,
    warn: (message: string) => warnings.push(message),
  } as unknown as Logger;
  const publisher = new BookChangePublisher(BOOK, log, events, logger, () => Promise.resolve(0), mayPublish);
  publisher.start();
  const publish = (matchId: number, frame: string) => publisher.publish([{ sportId: SPORT, matchId, frame }]);
  return { publisher, publish, emitted, warnings };
}

/**
 * The odds ingest's appends are fenced by the change log itself: whatever a
 * process's pauses, no two changes of a match name the same predecessor
 * (docs/adr/013-ingest-leadership.md).
 */
describe('the odds ingest against a change log that another ingest appended to', () => {
  let link: NatsLink;
  let log: PausableChangeLog;

  beforeAll(async () => {
    link = await connectUnderOwnPrefix('odds-fencing');
    log = new PausableChangeLog(link, {
      name: `ODDS_${BOOK.toUpperCase()}`,
      subjects: DynamicSubjects.oddsLogOf(BOOK),
      retentionMs: 60_000,
    });
  });

  afterAll(() => dropLog(link, log));

  /** Every retained change of the match: `[seq, prevSeq, frame]`. */
  async function chainOf(matchId: number): Promise<Array<[number, number | null, string]>> {
    const changes = await log.replay(DynamicSubjects.oddsLog(BOOK, SPORT, matchId), 0);
    return (changes ?? []).map((change) => [change.seq, change.prevSeq, Buffer.from(change.data).toString()]);
  }

  it('refuses a holder that appends after its successor did, and it emits nothing of it', async () => {
    let staleHolds = true;
    const stale = ingest(log, () => staleHolds);
    const successor = ingest(log, () => true);
    const [first] = await stale.publish(7, 'stale 1');

    // Its lease check answers true; it freezes before appending; its lease expires, the successor appends.
    log.pauseNextAppend(async () => {
      staleHolds = false;
      await successor.publish(7, 'successor 1');
    });
    expect(await stale.publish(7, 'stale 2')).toEqual([]);

    const chain = await chainOf(7);
    expect(chain).toEqual([
      [first.seq, null, 'stale 1'],
      [chain[1][0], first.seq, 'successor 1'],
    ]);
    expect(stale.emitted).toEqual([{ frame: 'stale 1', position: { seq: first.seq, prevSeq: null } }]);
    expect(successor.emitted).toEqual([
      { frame: 'successor 1', position: { seq: chain[1][0], prevSeq: first.seq } },
    ]);
    expect(stale.warnings.filter((line) => line.includes('refused an append'))).toHaveLength(1);
  });

  it('has a holder whose expectation was stale read the log again and append after what it finds', async () => {
    const holder = ingest(log, () => true);
    const other = ingest(log, () => true);
    const [first] = await holder.publish(8, 'holder 1');
    const [intruder] = await other.publish(8, 'other 1');
    expect(intruder.prevSeq).toBe(first.seq);

    const [second] = await holder.publish(8, 'holder 2');
    expect(second.prevSeq).toBe(intruder.seq);
    expect(holder.emitted.at(-1)).toEqual({ frame: 'holder 2', position: positionIn(second) });
    expect(holder.warnings.filter((line) => line.includes('refused an append'))).toHaveLength(1);

    // What max_age does to a quiet match: the log holds nothing of it, and the next change still names the last.
    const manager = await link.jetStreamManager();
    await manager.streams.purge(log.streamName, {
      filter: `${link.subjectPrefix}.${DynamicSubjects.oddsLog(BOOK, SPORT, 8)}`,
    });
    const [third] = await holder.publish(8, 'holder 3');
    expect(third.prevSeq).toBe(second.seq);
    expect(await chainOf(8)).toEqual([[third.seq, second.seq, 'holder 3']]);
    expect(holder.emitted.map((emitted) => emitted.position)).toEqual([first, second, third].map(positionIn));
  });
});
