import type { ChangePosition } from '@app/messaging';
import type { UpdateFrame } from './book-messages';

/*
 * The payload of `DynamicSubjects.oddsChanges`: several match changes of one
 * book in one NATS message, each with the position the change log gave it.
 * A poll changes hundreds of matches; one message per change cost a
 * publication, headers and a pass through Nest's handler pipeline each, on
 * the ingest and on every replica.
 *
 * One change per line: `<seq> <prev_seq or null> <update frame>`. An update
 * frame is `JSON.stringify` output, which never holds a raw line break.
 */

/** One match change as it travels in a batch. */
export interface MatchChange {
  readonly position: ChangePosition;
  /** The `update` frame as the ingest published it, without position. */
  readonly text: string;
  /**
   * The object `text` was serialised from, in the process that published it
   * (absent for a frame it read back from storage): never on the wire.
   */
  readonly frame?: UpdateFrame;
}

/** At most this many changes share a message, so a replica applies a poll over several turns. */
export const CHANGES_PER_BATCH = 32;
/** A batch closes once its bytes reach this size; NATS refuses payloads over 1 MB by default. */
export const BATCH_BYTE_LIMIT = 256 * 1024;

/** A change as its publisher holds it: the frame's UTF-8 bytes beside its text. */
export interface EncodedMatchChange extends MatchChange {
  /** `text` in UTF-8, as it was appended to the change log. */
  readonly bytes: Uint8Array;
}

/**
 * Groups changes, in order, into the payloads of consecutive batches. Each
 * frame's bytes, already encoded for the change log, are copied in as they
 * are: joining the texts and encoding the whole again cost two more copies of
 * every frame (a big book's first load publishes tens of megabytes of frames).
 */
export function batchPayloads<T extends EncodedMatchChange>(
  changes: readonly T[],
  limits = { changes: CHANGES_PER_BATCH, bytes: BATCH_BYTE_LIMIT },
): { bytes: Buffer; changes: T[] }[] {
  const batches: { bytes: Buffer; changes: T[] }[] = [];
  let heads: string[] = [];
  let members: T[] = [];
  let size = 0;
  for (const change of changes) {
    const head = `${change.position.seq} ${change.position.prevSeq ?? 'null'} `;
    const line = head.length + change.bytes.length;
    if (members.length > 0 && (members.length >= limits.changes || size + 1 + line > limits.bytes)) {
      batches.push({ bytes: joinLines(heads, members, size), changes: members });
      heads = [];
      members = [];
      size = 0;
    }
    size += (members.length > 0 ? 1 : 0) + line;
    heads.push(head);
    members.push(change);
  }
  if (members.length > 0) batches.push({ bytes: joinLines(heads, members, size), changes: members });
  return batches;
}

/** `<head><frame>` lines joined by line breaks, `size` bytes in all. */
function joinLines(heads: readonly string[], changes: readonly EncodedMatchChange[], size: number): Buffer {
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  changes.forEach((change, index) => {
    if (index > 0) bytes[at++] = 0x0a;
    // A head is digits, spaces and `null`: one byte per character.
    at += bytes.write(heads[index], at, 'latin1');
    bytes.set(change.bytes, at);
    at += change.bytes.length;
  });
  return bytes;
}

/**
 * The changes of a batch another process published; undefined when any line
 * is not `<seq> <prev_seq> <frame>` with positive integer positions (the
 * frames themselves are checked where they are parsed).
 */
export function readBatch(text: string): MatchChange[] | undefined {
  const changes: MatchChange[] = [];
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const first = text.indexOf(' ', start);
    const second = first < 0 ? -1 : text.indexOf(' ', first + 1);
    if (second < 0 || second >= end) return undefined;
    const seq = positiveInteger(text.slice(start, first));
    const prev = text.slice(first + 1, second);
    const prevSeq = prev === 'null' ? null : positiveInteger(prev);
    if (seq === undefined || prevSeq === undefined) return undefined;
    changes.push({ position: { seq, prevSeq }, text: text.slice(second + 1, end) });
    start = end + 1;
  }
  return changes;
}

function positiveInteger(digits: string): number | undefined {
  if (!/^[1-9][0-9]*$/.test(digits)) return undefined;
  const value = Number(digits);
  return Number.isSafeInteger(value) ? value : undefined;
}

/*
 * The batches this process published, by the bytes it published them as: a
 * process that also serves the book (ROLE=all) hears them through NatsLink's
 * in-process echo, which hands over those very bytes, and its replica takes
 * the objects instead of decoding and parsing text it has just written.
 * Weak: an entry goes with its bytes.
 */
const ownBatches = new WeakMap<Uint8Array, readonly MatchChange[]>();

export function rememberOwnBatch(bytes: Uint8Array, changes: readonly MatchChange[]): void {
  ownBatches.set(bytes, changes);
}

/** The changes behind `bytes` when this process published them; undefined for anyone else's. */
export function ownBatch(bytes: Uint8Array): readonly MatchChange[] | undefined {
  return ownBatches.get(bytes);
}
