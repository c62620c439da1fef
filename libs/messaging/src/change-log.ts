import {
  DiscardPolicy,
  type MsgHdrs,
  MsgHdrsImpl,
  nanos,
  RetentionPolicy,
  type SeqMsgRequest,
  StorageType,
} from 'nats';
import { AckInbox, asError, type StoredAck } from './ack-inbox';
import type { NatsLink } from './nats-link';
import { qualifySubject, unqualifySubject } from './subject-prefix';

/** Headers of a live message: its `seq`, and the `seq` of the match's previous change (absent when none). */
export const SEQ_HEADER = 'Seq';
export const PREV_SEQ_HEADER = 'Prev-Seq';

/** Where a change sits in its log, as stream frames carry it. */
export interface ChangePosition {
  readonly seq: number;
  readonly prevSeq: number | null;
}

/**
 * Where an append joins its subject's chain. The two differ when the
 * predecessor is no longer in the log (it aged out, or the log lost its
 * store): clients still get the last `seq` known, while the log, which holds
 * nothing of the subject, is expected to hold nothing.
 */
export interface ChainTail {
  /** The `seq` of the subject's newest message the log must hold for the append to be taken; 0: none. */
  readonly expectedLastSeq: number;
  /** The `seq` the change names as its predecessor (`Prev-Seq`); null when it has none. */
  readonly prevSeq: number | null;
}

/**
 * The log refused an append because the subject's newest message was not
 * the one expected: another appender came first, or the expected one aged
 * out. Nothing was appended.
 */
export class ChangeLogConflict extends Error {
  override readonly name = 'ChangeLogConflict';

  constructor(
    /** Without the deployment prefix. */
    readonly subject: string,
    readonly expectedLastSeq: number,
  ) {
    super(`the change log's newest message of ${subject} is not ${expectedLastSeq} (wrong last sequence)`);
  }
}

/** JetStream's headers for deduplication and for a conditional append. */
const MSG_ID_HEADER = 'Nats-Msg-Id';
const EXPECTED_LAST_SUBJECT_SEQ_HEADER = 'Nats-Expected-Last-Subject-Sequence';
const EXPECTED_LAST_MSG_ID_HEADER = 'Nats-Expected-Last-Msg-Id';

/** JetStream's error code for a publish whose expected last subject sequence did not match. */
const WRONG_LAST_SEQUENCE = 10071;

/**
 * Appends tried again at once after a conflict, per change. Under one lease
 * holder one retry after reading the log again settles it; more mean another
 * process keeps appending, and the caller's own backoff should pace it.
 */
const MAX_CONFLICT_RETRIES = 3;

/**
 * An append waits this long for JetStream's acknowledgement. One sent just as
 * the connection dropped gets no answer; failing it soon lets the caller retry
 * on the new connection instead of waiting out the client's 5 s default.
 */
const APPEND_TIMEOUT_MS = 1_000;

/** Changes replayed for one resume at most; a longer gap is answered with a snapshot instead. */
const MAX_REPLAY = 5_000;

export interface ChangeLogOptions {
  /** Stream name without the deployment prefix, e.g. `FIXTURES_LIVE`. */
  readonly name: string;
  /** Subjects it retains, without the deployment prefix, e.g. `fixtures.log.>`. */
  readonly subjects: string;
  /** How long a change stays replayable; the extensions ask for at least 120 s. */
  readonly retentionMs: number;
}

/** One retained change: `seq` is its position in the log, the same on every replica. */
export interface LoggedChange {
  readonly seq: number;
  readonly prevSeq: number | null;
  /** Without the deployment prefix. */
  readonly subject: string;
  readonly data: Uint8Array;
}

/** The log's newest message, as the appender that wrote it knows it. */
export interface LoggedTip {
  readonly id: string;
  readonly seq: number;
}

/**
 * What `ChangeLog.appendChain` did: every change's `seq`, when the log took
 * the chain whole; else the changes appended again one by one, a promise
 * each, as `appendAll` gives them.
 */
export type ChainOutcome = { readonly seqs: readonly number[] } | { readonly oneByOne: Promise<number>[] };

/** One change to append: see `ChangeLog.append`. */
export interface LogAppend {
  /** Without the deployment prefix. */
  readonly subject: string;
  readonly data: Uint8Array;
  readonly tail: ChainTail;
  readonly id?: string;
}

/**
 * A change log of one scope (fixtures-live, or one sportsbook) kept by NATS
 * JetStream: the stream's sequence is the `seq` clients see, so it is assigned
 * once, by the server, when the ingest appends, and is equal everywhere.
 * Retention is the stream's max age; replay reads retained messages of one
 * subject from a position (docs/adr/012-change-log-in-jetstream.md).
 */
export class ChangeLog {
  readonly streamName: string;
  private readonly acks = new AckInbox();

  constructor(
    private readonly link: NatsLink,
    private readonly options: ChangeLogOptions,
  ) {
    const prefix = link.subjectPrefix;
    this.streamName = `${prefix ? `${prefix}_` : ''}${options.name}`.replace(/[^A-Za-z0-9_-]/g, '_');
  }

  /** Creates the stream, or brings an existing one to these subjects and retention. */
  async ensure(): Promise<void> {
    const manager = await this.link.jetStreamManager();
    const config = {
      name: this.streamName,
      subjects: [qualifySubject(this.link.subjectPrefix, this.options.subjects)],
      max_age: nanos(this.options.retentionMs),
    };
    try {
      const info = await manager.streams.info(this.streamName);
      if (info.config.max_age !== config.max_age || info.config.subjects?.[0] !== config.subjects[0]) {
        await manager.streams.update(this.streamName, { ...info.config, ...config });
      }
    } catch (error) {
      if (!isNotFound(error)) throw error;
      await manager.streams.add({
        ...config,
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        discard: DiscardPolicy.Old,
      });
    }
  }

  /**
   * Appends a change after `tail` and resolves with its `seq`; rejects with
   * `ChangeLogConflict` when the subject's newest message in the log is not
   * `tail.expectedLastSeq` (the server compares and appends in one step, so
   * two appends expecting the same predecessor never both succeed), and
   * otherwise when NATS or the stream cannot take it. With `id`, an append
   * retried after an answer was lost is recognised by the stream (its
   * duplicate window, checked before the expectation) and keeps the first
   * `seq` instead of being logged twice or refused.
   */
  append(subject: string, data: Uint8Array, tail: ChainTail, id?: string): Promise<number> {
    return this.appendAll([{ subject, data, tail, id }])[0];
  }

  /**
   * Appends several changes at once, each as `append` would: one promise per
   * change, in order. Written to NATS together; the stream takes them in
   * this order, so two changes of one subject must not share a call.
   */
  appendAll(appends: readonly LogAppend[]): Promise<number>[] {
    const prefix = this.link.subjectPrefix;
    let acks: Promise<StoredAck>[];
    try {
      acks = this.acks.publish(
        this.link.currentConnection(),
        appends.map(({ subject, data, tail, id }) => ({
          subject: qualifySubject(prefix, subject),
          data,
          headers: appendHeaders(tail, id),
        })),
        APPEND_TIMEOUT_MS,
      );
    } catch (error) {
      // No connection (NATS is away): each append fails as any append does, for the caller's retry.
      const reason = asError(error);
      return appends.map(() => Promise.reject(reason));
    }
    return acks.map((ack, index) =>
      ack.then(
        (stored) => stored.seq,
        (error: unknown) => {
          if (isWrongLastSequence(error)) {
            const { subject, tail } = appends[index];
            throw new ChangeLogConflict(subject, tail.expectedLastSeq);
          }
          throw error;
        },
      ),
    );
  }

  /**
   * Appends several changes, each with an id never appended before, as
   * `appendAll` would, when the log's newest message is `after`; cheaper, as
   * JetStream is asked to acknowledge the last change only. Each change
   * expects the one before it (the first, `after`) to be the log's newest
   * message, so the log takes them in order with nothing between them, and
   * takes the last only once it took all the others. An acknowledgement of
   * the last at `after.seq` plus their count therefore gives every change's
   * `seq`. Any other outcome (another appender came first, a change's own
   * expectation was not met, a purge moved the sequence, NATS did not
   * answer) appends them again one by one with `appendAll`, under the same
   * ids, so those the log took keep their `seq` and none is logged twice.
   */
  async appendChain(
    appends: readonly (LogAppend & { readonly id: string })[],
    after: LoggedTip,
  ): Promise<ChainOutcome> {
    if (appends.length === 0) return { seqs: [] };
    const prefix = this.link.subjectPrefix;
    try {
      const last = await this.acks.publishAckingLast(
        this.link.currentConnection(),
        appends.map(({ subject, data, tail, id }, index) => ({
          subject: qualifySubject(prefix, subject),
          data,
          headers: appendHeaders(tail, id, index === 0 ? after.id : appends[index - 1].id),
        })),
        APPEND_TIMEOUT_MS,
      );
      if (!last.duplicate && last.seq === after.seq + appends.length) {
        return { seqs: appends.map((_, index) => after.seq + 1 + index) };
      }
    } catch {
      // Refused, unanswered or not sent: appended again one by one below.
    }
    return { oneByOne: this.appendAll(appends) };
  }

  /** The newest `seq` appended (0 while the log is empty). */
  async lastSeq(): Promise<number> {
    const manager = await this.link.jetStreamManager();
    return (await manager.streams.info(this.streamName)).state.last_seq;
  }

  /** The `seq` of the newest retained change of `subject`; null when the log holds none. */
  async lastSeqOf(subject: string): Promise<number | null> {
    const manager = await this.link.jetStreamManager();
    try {
      const message = await manager.streams.getMessage(this.streamName, {
        last_by_subj: qualifySubject(this.link.subjectPrefix, subject),
      });
      return message.seq;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  /**
   * Makes the next `seq` greater than `seq`. A log whose store was lost starts
   * again at 1; clients hold positions from before, and `seq` must only grow.
   */
  async raiseFloor(seq: number): Promise<void> {
    if ((await this.lastSeq()) >= seq) return;
    const manager = await this.link.jetStreamManager();
    await manager.streams.purge(this.streamName, { seq: seq + 1 });
  }

  /**
   * Every retained change of `subject` after `afterSeq`, oldest first; null
   * when the log cannot prove it still holds all of them (the position is
   * older than retention, ahead of the log, or the gap is too long to replay).
   */
  async replay(subject: string, afterSeq: number): Promise<LoggedChange[] | null> {
    const manager = await this.link.jetStreamManager();
    const { state } = await manager.streams.info(this.streamName);
    if (afterSeq > state.last_seq || afterSeq + 1 < state.first_seq) return null;
    const qualified = qualifySubject(this.link.subjectPrefix, subject);
    const changes: LoggedChange[] = [];
    for (let next = afterSeq + 1; next <= state.last_seq;) {
      if (changes.length >= MAX_REPLAY) return null;
      let message;
      try {
        message = await manager.streams.getMessage(this.streamName, nextOf(qualified, next));
      } catch (error) {
        if (isNotFound(error)) break;
        throw error;
      }
      if (message.seq > state.last_seq) break;
      const prev = message.header?.get(PREV_SEQ_HEADER);
      changes.push({
        seq: message.seq,
        prevSeq: prev ? Number(prev) : null,
        subject: unqualifySubject(this.link.subjectPrefix, message.subject),
        data: message.data,
      });
      next = message.seq + 1;
    }
    // The oldest retained change may have aged out while this ran.
    const first = (await manager.streams.info(this.streamName)).state.first_seq;
    return afterSeq + 1 < first ? null : changes;
  }
}

/** How an appender joins a subject's chain after reading the log's newest `seq` of it (null: none). */
export function tailAfter(newest: number | null, lastKnown: number | null): ChainTail {
  return { expectedLastSeq: newest ?? 0, prevSeq: newest ?? lastKnown };
}

export interface ChainAppendOptions {
  /** Stable across retries: see `ChangeLog.append`. */
  readonly id?: string;
  /** Asked after every conflict: false once the caller may no longer append (its lease may be gone). */
  readonly mayAppend: () => boolean;
  /** Told of every conflict, with where the retry joins the chain. */
  readonly onConflict: (conflict: ChangeLogConflict, retry: ChainTail) => void;
}

/**
 * Appends after `tail`; on a conflict reads the subject's newest `seq` again
 * and appends after it, while `mayAppend` allows. Resolves with the change's
 * position, or null when the caller may no longer append; nothing refused is
 * ever appended. `sent` is the outcome of an append after `tail` the caller
 * already made (with `appendAll`), taken as the first attempt.
 */
export async function appendToChain(
  log: Pick<ChangeLog, 'append' | 'lastSeqOf'>,
  subject: string,
  data: Uint8Array,
  tail: ChainTail,
  options: ChainAppendOptions,
  sent?: Promise<number>,
): Promise<ChangePosition | null> {
  let current = tail;
  let attempt = sent;
  for (let conflicts = 0; ;) {
    try {
      const seq = await (attempt ?? log.append(subject, data, current, options.id));
      return { seq, prevSeq: current.prevSeq };
    } catch (error) {
      attempt = undefined;
      if (!(error instanceof ChangeLogConflict) || conflicts++ >= MAX_CONFLICT_RETRIES) throw error;
      current = tailAfter(await log.lastSeqOf(subject), current.prevSeq);
      options.onConflict(error, current);
      if (!options.mayAppend()) return null;
    }
  }
}

/** A log line for a conflict: what was expected and found, no message contents or ids. */
export function describeConflict(conflict: ChangeLogConflict, retry: ChainTail): string {
  const seqOrNone = (seq: number) => (seq === 0 ? 'none' : String(seq));
  return (
    `The change log refused an append to ${conflict.subject}: it expected the newest change there to be ` +
    `${seqOrNone(conflict.expectedLastSeq)}, the log holds ${seqOrNone(retry.expectedLastSeq)} ` +
    '(another ingest appended, or it aged out)'
  );
}

/** Headers announcing a logged change on a live subject. */
export function positionHeaders(position: ChangePosition): MsgHdrs {
  const seq = [String(position.seq)];
  return trustedHeaders(
    position.prevSeq === null
      ? { [SEQ_HEADER]: seq }
      : { [SEQ_HEADER]: seq, [PREV_SEQ_HEADER]: [String(position.prevSeq)] },
  );
}

/**
 * An append's header block, written out: the keys are this module's
 * constants, the values digits and the ingests' append ids (a run's UUID and
 * a counter), none with a line break.
 */
function appendHeaders(tail: ChainTail, id: string | undefined, afterId?: string): string {
  let block = 'NATS/1.0\r\n';
  if (id !== undefined) block += `${MSG_ID_HEADER}: ${id}\r\n`;
  if (afterId !== undefined) block += `${EXPECTED_LAST_MSG_ID_HEADER}: ${afterId}\r\n`;
  block += `${EXPECTED_LAST_SUBJECT_SEQ_HEADER}: ${tail.expectedLastSeq}\r\n`;
  if (tail.prevSeq !== null) block += `${PREV_SEQ_HEADER}: ${tail.prevSeq}\r\n`;
  return `${block}\r\n`;
}

/**
 * Headers from keys of this module's constants (already in canonical form)
 * and values of digits, so nothing needs the checks and key searches
 * `headers().set` runs on every call: one set per live change published.
 */
function trustedHeaders(record: Record<string, string[]>): MsgHdrs {
  const meta = new PooledHeaders();
  for (const key of Object.keys(record)) meta.headers.set(key, record[key]);
  return meta;
}

/**
 * nats.js headers whose bytes are cut from Node's shared buffer pool.
 * nats.js encodes with `TextEncoder`, which gives every header block a
 * backing store of its own that the collector must track and free. Three
 * headers built and encoded: 0.6 to 1.2 µs against 2.2 to 2.5.
 */
class PooledHeaders extends MsgHdrsImpl {
  override encode(): Uint8Array {
    return Buffer.from(this.toString(), 'utf8');
  }
}

/** The position a live message's headers carry; null for a message without one. */
export function positionOf(meta: MsgHdrs | undefined): ChangePosition | null {
  const seq = Number(meta?.get(SEQ_HEADER) || NaN);
  if (!Number.isSafeInteger(seq) || seq < 1) return null;
  const prev = Number(meta?.get(PREV_SEQ_HEADER) || NaN);
  return { seq, prevSeq: Number.isSafeInteger(prev) && prev > 0 ? prev : null };
}

/**
 * The first message of `subject` at or after `seq`. The server's MSG.GET takes
 * `next_by_subj` (since 2.9); nats.js types it only on the direct API, which
 * needs streams created with `allow_direct`.
 */
function nextOf(subject: string, seq: number): SeqMsgRequest {
  return { seq, next_by_subj: subject } as SeqMsgRequest;
}

function isWrongLastSequence(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { api_error: apiError, message } = error as { api_error?: { err_code?: number }; message?: string };
  return apiError?.err_code === WRONG_LAST_SEQUENCE || /wrong last sequence/i.test(message ?? '');
}

function isNotFound(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    ((error as { code?: string }).code === '404' ||
      /not found/i.test((error as { message?: string }).message ?? ''))
  );
}
