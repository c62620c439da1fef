import { type ChainOutcome, ChangeLog, ChangeLogConflict, type NatsLink } from '@app/messaging';
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

  describe('appendChain', () => {
    /** The appends of a chain the log did not take whole, made again one by one. */
    const oneByOne = (outcome: ChainOutcome): Promise<number>[] => {
      if ('seqs' in outcome) throw new Error('the log took the chain whole');
      return outcome.oneByOne;
    };
    /** Every message the stream holds of `subjects`, as [subject, seq, data]. */
    const held = async (subjects: string[], after = 0) => {
      const rows: [string, number, string][] = [];
      for (const subject of subjects) {
        for (const change of (await log.replay(subject, after)) ?? []) {
          rows.push([subject, change.seq, new TextDecoder().decode(change.data)]);
        }
      }
      return rows.sort((a, b) => a[1] - b[1]);
    };
    const chainOf = (name: string, count: number, tails: Map<string, number>) =>
      Array.from({ length: count }, (_, i) => {
        const subject = `fence.log.${name}.${i}`;
        const newest = tails.get(subject) ?? null;
        return {
          subject,
          data: encoder.encode(`${name}-${i}`),
          tail: { expectedLastSeq: newest ?? 0, prevSeq: newest },
          id: `${name}-${i}-${Math.random()}`,
        };
      });

    it('gives every change of a chain after the newest message the seq the log gave it', async () => {
      const tipId = 'chain-tip';
      const tipSeq = await log.append(
        'fence.log.chain-tip',
        encoder.encode('tip'),
        { expectedLastSeq: 0, prevSeq: null },
        tipId,
      );
      const appends = chainOf('chain', 50, new Map());
      const outcome = await log.appendChain(appends, { id: tipId, seq: tipSeq });
      if (!('seqs' in outcome)) throw new Error('the chain was appended again one by one');
      const { seqs } = outcome;
      const stored = await held(appends.map((append) => append.subject));
      expect(stored.map(([subject, seq]) => [subject, seq])).toEqual(
        appends.map((append, i) => [append.subject, seqs[i]]),
      );
      expect(seqs.every((seq, i) => i === 0 || seq === seqs[i - 1] + 1)).toBe(true);
    });

    it('appends one by one, nothing twice, when another appender wrote after the tip', async () => {
      const tipId = 'other-tip';
      const tipSeq = await log.append(
        'fence.log.other-tip',
        encoder.encode('tip'),
        { expectedLastSeq: 0, prevSeq: null },
        tipId,
      );
      const intruder = await log.append('fence.log.intruder', encoder.encode('x'), {
        expectedLastSeq: 0,
        prevSeq: null,
      });
      const appends = chainOf('other', 20, new Map());
      const seqs = await Promise.all(oneByOne(await log.appendChain(appends, { id: tipId, seq: tipSeq })));
      expect(Math.min(...seqs)).toBeGreaterThan(intruder);
      const stored = await held(appends.map((append) => append.subject));
      expect(stored).toEqual(appends.map((append, i) => [append.subject, seqs[i], `other-${i}`]));
    });

    it('keeps the seq of the changes before one whose own expectation fails, refuses it, and appends the rest', async () => {
      const tipId = 'broken-tip';
      const tipSeq = await log.append(
        'fence.log.broken-tip',
        encoder.encode('tip'),
        { expectedLastSeq: 0, prevSeq: null },
        tipId,
      );
      const appends = chainOf('broken', 10, new Map());
      // Another change of the sixth subject came first: the chain's expectation of it is stale.
      const first = await log.append(appends[5].subject, encoder.encode('first'), {
        expectedLastSeq: 0,
        prevSeq: null,
      });
      const results = await Promise.allSettled(
        oneByOne(await log.appendChain(appends, { id: tipId, seq: tipSeq })),
      );
      expect(results.map((result) => result.status)).toEqual(
        appends.map((_, i) => (i === 5 ? 'rejected' : 'fulfilled')),
      );
      expect((results[5] as PromiseRejectedResult).reason).toBeInstanceOf(ChangeLogConflict);
      const seqs = results.map((result) => (result.status === 'fulfilled' ? result.value : first));
      const stored = await held(appends.map((append) => append.subject));
      expect(stored).toEqual(
        appends
          .map((append, i) => [append.subject, seqs[i], i === 5 ? 'first' : `broken-${i}`])
          .sort((a, b) => (a[1] as number) - (b[1] as number)),
      );
    });

    it("fails only the change over the server's limit, appending the others", async () => {
      const tipId = 'large-tip';
      const tipSeq = await log.append(
        'fence.log.large-tip',
        encoder.encode('tip'),
        { expectedLastSeq: 0, prevSeq: null },
        tipId,
      );
      const appends = chainOf('large', 5, new Map());
      const large = {
        ...appends[2],
        data: new Uint8Array((link.currentConnection().info?.max_payload ?? 0) + 1),
      };
      const results = await Promise.allSettled(
        oneByOne(
          await log.appendChain([...appends.slice(0, 2), large, ...appends.slice(3)], {
            id: tipId,
            seq: tipSeq,
          }),
        ),
      );
      expect(results.map((result) => result.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'rejected',
        'fulfilled',
        'fulfilled',
      ]);
      expect((await held(appends.map((append) => append.subject))).map(([, , data]) => data)).toEqual([
        'large-0',
        'large-1',
        'large-3',
        'large-4',
      ]);
    });

    // Last: the purge empties the suite's log.
    it('appends one by one when a purge moved the sequence after the tip', async () => {
      const tipId = 'purged-tip';
      const tipSeq = await log.append(
        'fence.log.purged-tip',
        encoder.encode('tip'),
        { expectedLastSeq: 0, prevSeq: null },
        tipId,
      );
      // What raising the log's floor does (ChangeLog.raiseFloor): the next seq jumps ahead.
      await (await link.jetStreamManager()).streams.purge(log.streamName, { seq: tipSeq + 100 });
      const appends = chainOf('purged', 5, new Map());
      const seqs = await Promise.all(oneByOne(await log.appendChain(appends, { id: tipId, seq: tipSeq })));
      expect(Math.min(...seqs)).toBeGreaterThanOrEqual(tipSeq + 100);
      const stored = await held(
        appends.map((append) => append.subject),
        tipSeq + 99,
      );
      expect(stored).toEqual(appends.map((append, i) => [append.subject, seqs[i], `purged-${i}`]));
    });
  });
});
