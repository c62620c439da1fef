import type { Logger } from '@nestjs/common';
import type { ChangeLog, NatsEventClient } from '@app/messaging';
import { updateFrame } from '../book/book-messages';
import { ownBatch, readBatch } from '../book/match-change-batch';
import type { BookRepository, BookWrite, PublishedWrite } from '../book/book.repository';
import { BookOutbox } from './book-outbox';
import type { BookPublication } from './book-publication';
import { waitFor } from '../../../../test/support/wait-for';

const NO_ROWS: BookWrite = {
  leagues: [],
  matches: [],
  matchTimes: [],
  removedMatches: [],
  markets: [],
  removedMarkets: [],
};

/**
 * What left the outbox, in order: `write:<what>` for PostgreSQL; for NATS, the
 * subject and, for a batch of match changes, the matches it carries.
 */
type Trace = string[];

function publication(matchId: number): BookPublication {
  return {
    catalog: [{ removed_matches: [matchId] }],
    frames: [{ sportId: 29, matchId, frame: `{"type":"update","match_id":${matchId}}` }],
    write: { ...NO_ROWS, removedMatches: [matchId] },
    catalogOnly: [],
    withRemovals: [matchId],
  };
}

function describeWrite(write: BookWrite): string {
  return `rows ${write.removedMatches.join(',')}`;
}

function describePublished(published: PublishedWrite): string {
  return `positions ${published.positions.map((p) => `${p.matchId}@${p.seq}`).join(',')}`;
}

describe('BookOutbox', () => {
  let trace: Trace;
  /** How many writes PostgreSQL still refuses. */
  let refusals: number;
  let outbox: BookOutbox;
  /** Whether the outbox's process holds the book's ingest lease. */
  let leading: boolean;
  /** The writes handed to the lease's next PostgreSQL probe, in order. */
  let carried: (() => Promise<unknown>)[];
  /** Each record of a publication, with the generation it names. */
  let published: { gen: number; published: PublishedWrite }[];
  /** The payload of the last NATS message on each subject. */
  let emitted: Map<string, Uint8Array>;
  /** While set, records of publications wait until it is called (a slow PostgreSQL). */
  let recordsWait: Promise<void> | undefined;
  /** While set, the rows of publications wait until it is called. */
  let rowsWait: Promise<void> | undefined;

  beforeEach(() => {
    trace = [];
    refusals = 0;
    leading = true;
    published = [];
    recordsWait = undefined;
    rowsWait = undefined;
    let seq = 0;
    let gen = 40;
    const refuseOr = <T>(what: string, write: () => T): Promise<T> => {
      if (refusals > 0) {
        refusals--;
        trace.push(`refused ${what}`);
        return Promise.reject(new Error('PostgreSQL is away'));
      }
      trace.push(`write ${what}`);
      return Promise.resolve(write());
    };
    const repository = {
      write: (_book: string, write: BookWrite) => {
        const store = () => refuseOr(describeWrite(write), () => ++gen);
        return rowsWait ? rowsWait.then(store) : store();
      },
      writePublished: async (_book: string, at: number, record: PublishedWrite) => {
        await recordsWait;
        return refuseOr(describePublished(record), () => void published.push({ gen: at, published: record }));
      },
      writeHealth: () => {
        trace.push('write health');
        return Promise.resolve();
      },
      topPosition: () => Promise.resolve(0),
    } as unknown as BookRepository;
    emitted = new Map();
    const events = {
      emitFrame: (subject: string, bytes: Uint8Array) => {
        const changes = readBatch(Buffer.from(bytes).toString('utf8')) ?? [];
        const matches = changes.map((change) => (JSON.parse(change.text) as { match_id: number }).match_id);
        const entry = matches.length > 0 ? `${subject} ${matches.join(',')}` : subject;
        trace.push(entry);
        emitted.set(entry, bytes);
      },
    } as unknown as NatsEventClient;
    const log = {
      ensure: () => Promise.resolve(),
      raiseFloor: () => Promise.resolve(),
      append: () => Promise.resolve(++seq),
      lastSeqOf: () => Promise.resolve(null),
    } as unknown as ChangeLog;
    const logger = { log: () => undefined, warn: () => undefined } as unknown as Logger;
    carried = [];
    outbox = new BookOutbox('book', 1000, repository, events, log, logger, {
      holds: () => leading,
      carryOnProbe: (write) => carried.push(write),
    });
  });

  afterEach(() => outbox.stop(undefined));

  it('persists a publication, then publishes its catalog and frames, then stores their positions', async () => {
    outbox.start();
    outbox.send(publication(7));
    outbox.send(publication(8));
    await waitFor(() => trace.length === 8, { timeoutMs: 2000, what: 'both publications' });
    expect(trace).toEqual([
      'write rows 7',
      'write rows 8',
      'odds.book.catalog',
      'odds.book.changes 7',
      'write positions 7@1',
      'odds.book.catalog',
      'odds.book.changes 8',
      'write positions 8@2',
    ]);
  });

  it('publishes the next publication once its own rows are stored, before the record of the one before', async () => {
    let recordsGo!: () => void;
    recordsWait = new Promise((resolve) => (recordsGo = resolve));
    outbox.start();
    outbox.send(publication(7));
    outbox.send(publication(8));
    outbox.send(publication(9));
    await waitFor(() => trace.includes('odds.book.changes 9'), {
      timeoutMs: 2000,
      what: 'the last frame, with no record stored yet',
    });
    expect(trace.filter((entry) => entry.startsWith('write'))).toEqual([
      'write rows 7',
      'write rows 8',
      'write rows 9',
    ]);
    recordsGo();
    await waitFor(() => published.length === 3, { timeoutMs: 2000, what: 'the records' });
    expect(trace.slice(-3)).toEqual(['write positions 7@1', 'write positions 8@2', 'write positions 9@3']);
  });

  it('waits, when stopped, for the records of what went out', async () => {
    let recordsGo!: () => void;
    recordsWait = new Promise((resolve) => (recordsGo = resolve));
    outbox.start();
    outbox.send(publication(7));
    await waitFor(() => trace.includes('odds.book.changes 7'), { timeoutMs: 2000, what: 'the frame' });
    let stopped = false;
    const stopping = outbox.stop(undefined).then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    recordsGo();
    await stopping;
    expect(published.map((record) => record.published.positions)).toEqual([
      [{ matchId: 7, seq: 1, prevSeq: null }],
    ]);
  });

  it('tells a parted load when at most so many publications are still to store and publish', async () => {
    let rowsGo!: () => void;
    rowsWait = new Promise((resolve) => (rowsGo = resolve));
    outbox.start();
    for (const matchId of [7, 8, 9]) outbox.send(publication(matchId));
    let caughtUp = false;
    const waiting = outbox.caughtUp(1).then(() => (caughtUp = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(caughtUp).toBe(false);
    rowsGo();
    await waiting;
    expect(trace).toContain('odds.book.changes 8');
    await expect(outbox.caughtUp(3)).resolves.toBeUndefined();
  });

  it('lets a parted load go on at once when stopped, whatever is still queued', async () => {
    let rowsGo!: () => void;
    rowsWait = new Promise((resolve) => (rowsGo = resolve));
    outbox.start();
    outbox.send(publication(7));
    outbox.send(publication(8));
    const waiting = outbox.caughtUp(0);
    const stopping = outbox.stop(undefined);
    await expect(waiting).resolves.toBeUndefined();
    expect(trace).toEqual([]);
    rowsGo();
    await stopping;
  });

  it('remembers the object of each frame it publishes, by the very bytes it published', async () => {
    const update = updateFrame(7, 29, 100, [], ['s;0;m']);
    outbox.start();
    outbox.send({
      ...publication(7),
      frames: [{ sportId: 29, matchId: 7, frame: JSON.stringify(update), update }],
    });
    await waitFor(() => published.length === 1, { timeoutMs: 2000, what: 'the publication' });
    const bytes = emitted.get('odds.book.changes 7') ?? new Uint8Array();
    const text = JSON.stringify(update);
    expect(ownBatch(bytes)).toEqual([
      { position: { seq: 1, prevSeq: null }, text, frame: update, bytes: Buffer.from(text) },
    ]);
    expect(Buffer.from(bytes).toString()).toBe(`1 null ${text}`);
    expect(ownBatch(Buffer.from(bytes))).toBeUndefined();
  });

  it('keeps publishing while PostgreSQL refuses writes, and writes the backlog in order once it is back', async () => {
    refusals = 1;
    outbox.start();
    outbox.send(publication(7));
    outbox.send(publication(8));
    await waitFor(() => trace.filter((entry) => entry.startsWith('odds.book.changes')).length === 2, {
      timeoutMs: 2000,
      what: 'both frames published',
    });
    await waitFor(() => trace.includes('write positions 8@2'), { timeoutMs: 2000, what: 'the backlog' });
    expect(trace.filter((entry) => entry.startsWith('write'))).toEqual([
      'write rows 7',
      'write rows 8',
      'write positions 7@1',
      'write positions 8@2',
    ]);
    expect(trace[0]).toBe('refused rows 7');
    expect(published.map((record) => record.gen)).toEqual([41, 42]);
  });

  it('records each publication under the generation its rows were stored with, with what went out', async () => {
    outbox.start();
    outbox.send({
      catalog: [{ matches: [] }],
      frames: [{ sportId: 29, matchId: 7, frame: '{}' }],
      write: NO_ROWS,
      catalogOnly: [9],
      withRemovals: [7, 8],
    });
    await waitFor(() => published.length === 1, { timeoutMs: 2000, what: 'the record' });
    expect(published).toEqual([
      {
        gen: 41,
        published: {
          positions: [{ matchId: 7, seq: 1, prevSeq: null }],
          catalogMatches: [9],
          withRemovals: [7],
        },
      },
    ]);
  });

  it('drops the writes still queued when started again after a stop: another ingest may have led meanwhile', async () => {
    refusals = 1;
    outbox.start();
    outbox.send(publication(7));
    await waitFor(() => trace.includes('odds.book.changes 7'), { timeoutMs: 2000, what: 'the frame' });
    await outbox.stop(undefined);
    expect(trace.some((entry) => entry.startsWith('write'))).toBe(false);

    outbox.start();
    outbox.send(publication(8));
    await waitFor(() => trace.includes('write rows 8'), { timeoutMs: 2000, what: 'a later publication' });
    expect(trace.filter((entry) => entry.startsWith('write rows'))).toEqual(['write rows 8']);
  });

  it('appends and publishes nothing once the ingest lease may be lost', async () => {
    outbox.start();
    leading = false;
    outbox.send(publication(7));
    await waitFor(() => trace.includes('write rows 7'), { timeoutMs: 2000, what: 'the write' });
    await outbox.stop(undefined);
    expect(trace).toEqual(['write rows 7']);
    expect(outbox.publishHealth()).toBeUndefined();
  });

  it('reports feed health only while started, as not loaded until a poll succeeds', () => {
    expect(outbox.publishHealth()).toEqual({ last_success_at: null, full_loaded: false, poll_ms: 1000 });
    outbox.pollSucceeded(5000);
    expect(outbox.publishHealth()).toEqual({ last_success_at: 5000, full_loaded: true, poll_ms: 1000 });
    void outbox.stop(undefined);
    expect(outbox.publishHealth()).toBeUndefined();
    outbox.start();
    expect(outbox.publishHealth()).toEqual({ last_success_at: null, full_loaded: false, poll_ms: 1000 });
  });

  it('publishes the feed health at every report and stores it at most once a second, on the lease probe', async () => {
    let now = 10_000;
    const clock = jest.spyOn(performance, 'now').mockImplementation(() => now);
    try {
      outbox.start();
      outbox.reportHealth();
      now += 400;
      outbox.reportHealth();
      now += 600;
      outbox.reportHealth();
      expect(trace.filter((entry) => entry === 'odds.book.health')).toHaveLength(3);
      // Nothing is written until the lease's probe runs what was handed to it.
      expect(trace).not.toContain('write health');
      expect(carried).toHaveLength(2);
      await Promise.all(carried.map((write) => write()));
      expect(trace.filter((entry) => entry === 'write health')).toHaveLength(2);
    } finally {
      clock.mockRestore();
    }
  });
});
