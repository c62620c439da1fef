import fc from 'fast-check';
import { headers, MsgHdrsImpl } from 'nats';
import {
  appendToChain,
  type ChainTail,
  ChangeLog,
  ChangeLogConflict,
  describeConflict,
  positionHeaders,
  positionOf,
  PREV_SEQ_HEADER,
  SEQ_HEADER,
  tailAfter,
} from './change-log';
import type { NatsLink } from './nats-link';

/** A log of one subject that takes an append only when its expectation is the newest `seq`, as JetStream does. */
function fakeLog(newest: number | null) {
  let last = newest;
  let next = (newest ?? 0) + 1;
  const appended: ChainTail[] = [];
  const log: Pick<ChangeLog, 'append' | 'lastSeqOf'> = {
    append: (subject, _data, tail) => {
      if (tail.expectedLastSeq !== (last ?? 0)) {
        return Promise.reject(new ChangeLogConflict(subject, tail.expectedLastSeq));
      }
      appended.push(tail);
      last = next++;
      return Promise.resolve(last);
    },
    lastSeqOf: () => Promise.resolve(last),
  };
  return {
    log,
    appended,
    /** Another appender's change, unknown to the one under test. */
    intrude: () => (last = next++),
  };
}

const data = new Uint8Array();

describe('tailAfter', () => {
  it('expects and names the newest change the log holds', () => {
    expect(tailAfter(12, 7)).toEqual({ expectedLastSeq: 12, prevSeq: 12 });
  });

  it('expects nothing but names the last seq known when the log holds nothing of the subject', () => {
    expect(tailAfter(null, 7)).toEqual({ expectedLastSeq: 0, prevSeq: 7 });
    expect(tailAfter(null, null)).toEqual({ expectedLastSeq: 0, prevSeq: null });
  });
});

describe('appendToChain', () => {
  it('reads the log again after a conflict and appends after what it found', async () => {
    const { log, appended, intrude } = fakeLog(4);
    intrude();
    const conflicts: string[] = [];
    const position = await appendToChain(
      log,
      's',
      data,
      { expectedLastSeq: 4, prevSeq: 4 },
      {
        mayAppend: () => true,
        onConflict: (conflict, retry) => conflicts.push(describeConflict(conflict, retry)),
      },
    );
    expect(position).toEqual({ seq: 6, prevSeq: 5 });
    expect(appended).toEqual([{ expectedLastSeq: 5, prevSeq: 5 }]);
    expect(conflicts).toEqual([
      'The change log refused an append to s: it expected the newest change there to be 4, the log holds 5 ' +
        '(another ingest appended, or it aged out)',
    ]);
  });

  it('keeps naming the last seq known when the log no longer holds it', async () => {
    const { log } = fakeLog(null);
    const position = await appendToChain(
      log,
      's',
      data,
      { expectedLastSeq: 9, prevSeq: 9 },
      {
        mayAppend: () => true,
        onConflict: () => undefined,
      },
    );
    expect(position).toEqual({ seq: 1, prevSeq: 9 });
  });

  it('appends nothing after a conflict once the caller may no longer append', async () => {
    const { log, appended, intrude } = fakeLog(4);
    intrude();
    const position = await appendToChain(
      log,
      's',
      data,
      { expectedLastSeq: 4, prevSeq: 4 },
      {
        mayAppend: () => false,
        onConflict: () => undefined,
      },
    );
    expect(position).toBeNull();
    expect(appended).toEqual([]);
  });

  it('gives up with the conflict when another appender keeps coming first', async () => {
    const { log, appended, intrude } = fakeLog(4);
    intrude();
    await expect(
      appendToChain(
        log,
        's',
        data,
        { expectedLastSeq: 4, prevSeq: 4 },
        {
          mayAppend: () => true,
          onConflict: () => intrude(),
        },
      ),
    ).rejects.toBeInstanceOf(ChangeLogConflict);
    expect(appended).toEqual([]);
  });

  it('passes on other failures as they are', async () => {
    const log: Pick<ChangeLog, 'append' | 'lastSeqOf'> = {
      append: () => Promise.reject(new Error('NATS is not connected')),
      lastSeqOf: () => Promise.resolve(null),
    };
    await expect(
      appendToChain(
        log,
        's',
        data,
        { expectedLastSeq: 0, prevSeq: null },
        {
          mayAppend: () => true,
          onConflict: () => undefined,
        },
      ),
    ).rejects.toThrow('NATS is not connected');
  });
});

describe('positionHeaders', () => {
  const position = fc.record({
    seq: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    prevSeq: fc.option(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), { nil: null }),
  });

  it('writes the bytes nats.js headers would, and reads back as the position', () => {
    fc.assert(
      fc.property(position, (p) => {
        const reference = headers();
        reference.set(SEQ_HEADER, String(p.seq));
        if (p.prevSeq !== null) reference.set(PREV_SEQ_HEADER, String(p.prevSeq));
        const meta = positionHeaders(p);
        expect(Buffer.from((meta as MsgHdrsImpl).encode())).toEqual(
          Buffer.from((reference as MsgHdrsImpl).encode()),
        );
        expect(positionOf(meta)).toEqual(p);
        expect(positionOf(MsgHdrsImpl.decode((meta as MsgHdrsImpl).encode()))).toEqual(p);
      }),
    );
  });
});

describe('ChangeLog appends while NATS is not connected', () => {
  const disconnected = {
    subjectPrefix: 'test',
    currentConnection: () => {
      throw new Error('NATS is not connected');
    },
  } as unknown as NatsLink;
  const log = new ChangeLog(disconnected, { name: 'LOG', subjects: 'log.>', retentionMs: 60_000 });
  const tail: ChainTail = { expectedLastSeq: 4, prevSeq: 4 };

  it('fails each append of a round as a rejected promise, never by throwing at the caller', async () => {
    let acks: Promise<number>[] = [];
    expect(() => {
      acks = log.appendAll([
        { subject: 'log.1', data, tail, id: 'a' },
        { subject: 'log.2', data, tail, id: 'b' },
      ]);
    }).not.toThrow();
    expect(acks).toHaveLength(2);
    for (const ack of acks) await expect(ack).rejects.toThrow('NATS is not connected');
    await expect(log.append('log.3', data, tail)).rejects.toThrow('NATS is not connected');
  });
});
