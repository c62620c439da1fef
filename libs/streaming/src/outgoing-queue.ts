/** One frame on its way to a socket: bytes encoded once and shared by every recipient. */
export interface OutgoingFrame<M = unknown> {
  readonly data: Buffer;
  /**
   * Frames with the same key describe the same thing (a match, the heartbeat):
   * while waiting in a queue, a newer one replaces or merges into the older.
   */
  readonly key?: string;
  /** What the conflation hook needs to merge two frames without parsing their bytes. */
  readonly meta?: M;
  /** Size of `data` (an estimate for a deferred frame, whose bytes do not exist yet). */
  readonly byteLength?: number;
}

/** Bytes a frame counts for against a queue's bound. */
export function frameBytes(frame: OutgoingFrame<unknown>): number {
  return frame.byteLength ?? frame.data.length;
}

/**
 * A frame whose bytes are built when first read, which for a queued frame is
 * when the socket takes it. A slow client's merged frame is replaced at every
 * newer change of its key; encoding each merge would allocate for frames
 * that are never sent, and a client that reads nothing would cost the most.
 */
export function deferredFrame<M>(
  fields: { readonly key?: string; readonly meta?: M; readonly byteLength: number },
  encode: () => Buffer,
): OutgoingFrame<M> {
  let data: Buffer | undefined;
  return {
    key: fields.key,
    meta: fields.meta,
    byteLength: fields.byteLength,
    get data(): Buffer {
      return (data ??= encode());
    },
  };
}

/** Folds a newer frame into a pending one with the same key; returns the frame to send instead. */
export type Conflate<M> = (pending: OutgoingFrame<M>, next: OutgoingFrame<M>) => OutgoingFrame<M>;

/** The default hook: the newest frame for a key is all a slow client needs. */
export function keepLatest<M>(_pending: OutgoingFrame<M>, next: OutgoingFrame<M>): OutgoingFrame<M> {
  return next;
}

interface Slot<M> {
  readonly key: string | undefined;
  frame: OutgoingFrame<M>;
}

/**
 * The frames a socket could not take yet, in order. A keyed frame whose key is
 * already waiting is conflated into that slot (keeping its place), so the queue
 * grows with the number of distinct keys, not with the message rate.
 */
export class OutgoingQueue<M = unknown> {
  private slots: (Slot<M> | undefined)[] = [];
  private head = 0;
  private readonly byKey = new Map<string, Slot<M>>();
  private queuedBytes = 0;

  constructor(private readonly conflate: Conflate<M> = keepLatest) {}

  get length(): number {
    return this.slots.length - this.head;
  }

  get bytes(): number {
    return this.queuedBytes;
  }

  /** Queues a frame; true when it was merged into one already waiting under the same key. */
  push(frame: OutgoingFrame<M>): boolean {
    const waiting = frame.key === undefined ? undefined : this.byKey.get(frame.key);
    if (waiting) {
      const merged = this.conflate(waiting.frame, frame);
      this.queuedBytes += frameBytes(merged) - frameBytes(waiting.frame);
      waiting.frame = merged;
      return true;
    }
    const slot: Slot<M> = { key: frame.key, frame };
    this.slots.push(slot);
    if (frame.key !== undefined) this.byKey.set(frame.key, slot);
    this.queuedBytes += frameBytes(frame);
    return false;
  }

  shift(): OutgoingFrame<M> | undefined {
    if (this.head >= this.slots.length) return undefined;
    const slot = this.slots[this.head] as Slot<M>;
    this.slots[this.head] = undefined;
    this.head += 1;
    if (this.head === this.slots.length) {
      this.slots = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.slots.length) {
      this.slots = this.slots.slice(this.head);
      this.head = 0;
    }
    if (slot.key !== undefined) this.byKey.delete(slot.key);
    this.queuedBytes -= frameBytes(slot.frame);
    return slot.frame;
  }

  clear(): void {
    this.slots = [];
    this.head = 0;
    this.byKey.clear();
    this.queuedBytes = 0;
  }
}
