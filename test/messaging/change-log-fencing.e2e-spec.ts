import { ChangeLog, ChangeLogConflict, type NatsLink } from '@app/messaging';
import { connectUnderOwnPrefix, dropLog } from '../support/pausable-change-log';

const encoder = new TextEncoder();

/**
 * The change log's append is a compare-and-set on the subject's newest
 * message, done by the real NATS server: what the fencing of the ingest
 * (docs/adr/013-ingest-leadership.md) rests on.
 */
describe('ChangeLog appends against the real NATS', () => {
  let link: NatsLink;
  let log: ChangeLog;

  beforeAll(async () => {
    link = await connectUnderOwnPrefix('change-log-fencing');
    log = new ChangeLog(link, { name: 'FENCE', subjects: 'fence.log.>', retentionMs: 60_000 });
    await log.ensure();
  });

  afterAll(() => dropLog(link, log));

  it('takes exactly one of two appends that expect the same predecessor', async () => {
    const subject = 'fence.log.race';
    const first = await log.append(subject, encoder.encode('a'), { expectedLastSeq: 0, prevSeq: null });
    const tail = { expectedLastSeq: first, prevSeq: first };
    const results = await Promise.allSettled([
      log.append(subject, encoder.encode('b'), tail),
      log.append(subject, encoder.encode('c'), tail),
    ]);
    const taken = results.filter((result) => result.status === 'fulfilled');
    const refused = results.filter((result) => result.status === 'rejected');
    expect(taken).toHaveLength(1);
    expect(refused).toHaveLength(1);
    const reason: unknown = refused[0].reason;
    expect(reason).toBeInstanceOf(ChangeLogConflict);
    expect(reason).toMatchObject({ subject, expectedLastSeq: first });
    expect(await log.lastSeqOf(subject)).toBe(taken[0].value);
    const chain = await log.replay(subject, 0);
    expect(chain?.map((change) => change.prevSeq)).toEqual([null, first]);
  });

  it('refuses an append that expects no predecessor on a subject that has one', async () => {
    const subject = 'fence.log.fresh';
    const first = await log.append(subject, encoder.encode('a'), { expectedLastSeq: 0, prevSeq: null });
    await expect(
      log.append(subject, encoder.encode('b'), { expectedLastSeq: 0, prevSeq: null }),
    ).rejects.toBeInstanceOf(ChangeLogConflict);
    expect(await log.lastSeqOf(subject)).toBe(first);
  });

  it('answers a retry of a stored append with its first seq, even once its expectation is stale', async () => {
    const subject = 'fence.log.retry';
    const tail = { expectedLastSeq: 0, prevSeq: null };
    const first = await log.append(subject, encoder.encode('a'), tail, 'retry-1');
    expect(await log.append(subject, encoder.encode('a'), tail, 'retry-1')).toBe(first);
    const second = await log.append(
      subject,
      encoder.encode('b'),
      { expectedLastSeq: first, prevSeq: first },
      'retry-2',
    );
    expect(await log.append(subject, encoder.encode('a'), tail, 'retry-1')).toBe(first);
    // The same stale expectation under a new id is a new change, and refused.
    await expect(log.append(subject, encoder.encode('c'), tail, 'retry-3')).rejects.toBeInstanceOf(
      ChangeLogConflict,
    );
    expect(await log.lastSeqOf(subject)).toBe(second);
    expect((await log.replay(subject, 0))?.map((change) => change.seq)).toEqual([first, second]);
  });

  it('takes an append that expects nothing once the subject aged out, naming the last seq known', async () => {
    const subject = 'fence.log.aged';
    const first = await log.append(subject, encoder.encode('a'), { expectedLastSeq: 0, prevSeq: null });
    // What max_age does to a quiet subject, without waiting for it.
    await (
      await link.jetStreamManager()
    ).streams.purge(log.streamName, { filter: `${link.subjectPrefix}.${subject}` });
    await expect(
      log.append(subject, encoder.encode('b'), { expectedLastSeq: first, prevSeq: first }),
    ).rejects.toBeInstanceOf(ChangeLogConflict);
    const next = await log.append(subject, encoder.encode('b'), { expectedLastSeq: 0, prevSeq: first });
    expect((await log.replay(subject, first))?.map((change) => [change.seq, change.prevSeq])).toEqual([
      [next, first],
    ]);
  });
});
