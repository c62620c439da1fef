export type DeltaAnswer = { kind: 'gone' } | { kind: 'changes'; refs: string[] };

/**
 * What changed after a cursor, for a limited time: entries older than the
 * retention are forgotten, and a cursor from before the oldest remembered one
 * (or from the future) can no longer be answered (HTTP 410).
 */
export class DeltaLog {
  private cursors: number[] = [];
  private refs: string[] = [];
  private head = 0;
  /** Every change after this cursor is still known. */
  private floor: number;
  private lastCursor: number;

  constructor(start: number) {
    this.floor = start;
    this.lastCursor = start;
  }

  get last(): number {
    return this.lastCursor;
  }

  get oldest(): number {
    return this.floor;
  }

  record(cursor: number, ref: string): void {
    this.cursors.push(cursor);
    this.refs.push(ref);
    this.lastCursor = cursor;
  }

  /** Distinct refs changed after `since`, in the order of their last change. */
  since(since: number, current: number): DeltaAnswer {
    if (!Number.isInteger(since) || since < this.floor || since > current) return { kind: 'gone' };
    let low = this.head;
    let high = this.cursors.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.cursors[mid] <= since) low = mid + 1;
      else high = mid;
    }
    const seen = new Set<string>();
    for (let i = this.cursors.length - 1; i >= low; i--) seen.add(this.refs[i]);
    return { kind: 'changes', refs: [...seen].reverse() };
  }

  /** Forgets entries at or before `cursor`. */
  forgetUpTo(cursor: number): void {
    while (this.head < this.cursors.length && this.cursors[this.head] <= cursor) {
      this.floor = this.cursors[this.head];
      this.head++;
    }
    if (this.head > 4096 && this.head * 2 > this.cursors.length) {
      this.cursors = this.cursors.slice(this.head);
      this.refs = this.refs.slice(this.head);
      this.head = 0;
    }
  }
}
