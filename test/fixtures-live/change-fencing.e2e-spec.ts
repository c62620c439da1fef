import type { DataSource } from 'typeorm';
import type { IngestLeadership } from '@app/leadership';
import { DynamicSubjects, type NatsLink } from '@app/messaging';
import { LiveChangePublisher } from '../../apps/fixtures-live/src/ingest/live-change-publisher';
import type { LiveWrite, LiveWriter } from '../../apps/fixtures-live/src/ingest/live-writer';
import {
  connectUnderOwnPrefix,
  dropLog,
  PausableChangeLog,
  recordingEvents,
} from '../support/pausable-change-log';
import { waitFor } from '../support/wait-for';

const SPORT = 1;

/** One ingest process's live publisher, on the shared log, with what it emitted, stored and warned. */
function ingest(log: PausableChangeLog, holds: () => boolean) {
  const { events, emitted } = recordingEvents();
  const stored: LiveWrite[] = [];
  const db = { query: () => Promise.resolve([{ top: null }]) } as unknown as DataSource;
  const writer = {
    write: (_matchId: number, write: LiveWrite) => stored.push(write),
  } as unknown as LiveWriter;
  const nats = { onReconnect: () => () => undefined } as unknown as NatsLink;
  const leadership = { holds } as unknown as IngestLeadership;
  const publisher = new LiveChangePublisher(db, log, events, writer, nats, leadership);
  const warnings: string[] = [];
  // Its logger is Nest's, made inside; the test reads what this one process warns.
  Object.assign(publisher, { logger: { log: () => undefined, warn: (line: string) => warnings.push(line) } });
  publisher.onApplicationBootstrap();
  /** Publishes a state of the match and waits until the publisher is done with it. */
  const publish = async (matchId: number, frame: string): Promise<void> => {
    const write = { snapshotJson: frame, stateJson: '{}', seq: 1 };
    publisher.publish(matchId, SPORT, Buffer.from(frame), write);
    await waitFor(() => !publisher.busy, { timeoutMs: 5000, what: `${frame} to be published` });
  };
  return { publisher, publish, emitted, stored, warnings };
}

/**
 * The live ingest's appends are fenced by the change log itself: whatever a
 * process's pauses, no two changes of a match name the same predecessor
 * (docs/adr/013-ingest-leadership.md).
 */
describe('the live ingest against a change log that another ingest appended to', () => {
  let link: NatsLink;
  let log: PausableChangeLog;

  beforeAll(async () => {
    link = await connectUnderOwnPrefix('live-fencing');
    log = new PausableChangeLog(link, {
      name: 'FIXTURES_LIVE',
      subjects: DynamicSubjects.fixturesLogAll,
      retentionMs: 60_000,
    });
  });

  afterAll(() => dropLog(link, log));

  /** Every retained change of the match: `[seq, prevSeq, frame]`. */
  async function chainOf(matchId: number): Promise<Array<[number, number | null, string]>> {
    const changes = await log.replay(DynamicSubjects.fixturesLog(SPORT, matchId), 0);
    return (changes ?? []).map((change) => [change.seq, change.prevSeq, Buffer.from(change.data).toString()]);
  }

  it('refuses a holder that appends after its successor did, and it emits and stores no position of it', async () => {
    let staleHolds = true;
    const stale = ingest(log, () => staleHolds);
    const successor = ingest(log, () => true);
    await stale.publish(7, 'stale 1');
    const [first] = await chainOf(7);

    // Its lease check answers true; it freezes before appending; its lease expires, the successor appends.
    log.pauseNextAppend(async () => {
      staleHolds = false;
      await successor.publish(7, 'successor 1');
    });
    await stale.publish(7, 'stale 2');

    const chain = await chainOf(7);
    expect(chain).toEqual([first, [chain[1][0], first[0], 'successor 1']]);
    expect(stale.emitted).toEqual([{ frame: 'stale 1', position: { seq: first[0], prevSeq: null } }]);
    expect(stale.stored.map((write) => write.changeSeq)).toEqual([first[0]]);
    expect(successor.emitted).toEqual([
      { frame: 'successor 1', position: { seq: chain[1][0], prevSeq: first[0] } },
    ]);
    expect(stale.warnings.filter((line) => line.includes('refused an append'))).toHaveLength(1);
  });

  it('has a holder whose expectation was stale read the log again and append after what it finds', async () => {
    const holder = ingest(log, () => true);
    const other = ingest(log, () => true);
    await holder.publish(8, 'holder 1');
    await other.publish(8, 'other 1');
    const [[first], [intruder]] = await chainOf(8);

    await holder.publish(8, 'holder 2');
    const second = holder.emitted.at(-1)?.position;
    expect(second?.prevSeq).toBe(intruder);
    expect(holder.warnings.filter((line) => line.includes('refused an append'))).toHaveLength(1);

    // What max_age does to a quiet match: the log holds nothing of it, and the next change still names the last.
    const manager = await link.jetStreamManager();
    await manager.streams.purge(log.streamName, {
      filter: `${link.subjectPrefix}.${DynamicSubjects.fixturesLog(SPORT, 8)}`,
    });
    await holder.publish(8, 'holder 3');
    const [third] = await chainOf(8);
    expect(third).toEqual([third[0], second?.seq, 'holder 3']);
    expect(holder.emitted.map((emitted) => emitted.position)).toEqual([
      { seq: first, prevSeq: null },
      second,
      { seq: third[0], prevSeq: second?.seq },
    ]);
    expect(holder.stored.map((write) => [write.changeSeq, write.prevChangeSeq])).toEqual([
      [first, null],
      [second?.seq, intruder],
      [third[0], second?.seq],
    ]);
  });

  it('logs a state once when the answer to its append was lost and it is retried', async () => {
    const holder = ingest(log, () => true);
    await holder.publish(9, 'first');
    log.loseNextAnswer();
    await holder.publish(9, 'second');

    const chain = await chainOf(9);
    expect(chain.map(([, , frame]) => frame)).toEqual(['first', 'second']);
    expect(holder.emitted.map((emitted) => emitted.position)).toEqual([
      { seq: chain[0][0], prevSeq: null },
      { seq: chain[1][0], prevSeq: chain[0][0] },
    ]);
  });
});
