/** What to do with a data frame, given the newest `seq` held for its match. */
export type FrameVerdict =
  /** Newer and chained to what is held (or the first of the match): apply it. */
  | 'apply'
  /** Not newer than what is held: a duplicate or a replay; ignore it. */
  | 'stale'
  /** Newer, but its `prev_seq` is neither the held `seq` nor null: something was missed. */
  | 'gap';

/**
 * The newest change-log position applied per match (extensions, section 1),
 * and the positions to resume from after a reconnect.
 */
export class Positions {
  private readonly held = new Map<number, number>();
  /** The newest `seq` seen on any frame, heartbeats included. */
  private newest = 0;

  judge(matchId: number, seq: number, prevSeq: number | null | undefined): FrameVerdict {
    const current = this.held.get(matchId);
    if (current === undefined) return 'apply';
    if (seq <= current) return 'stale';
    if (prevSeq === null || prevSeq === undefined || prevSeq === current) return 'apply';
    return 'gap';
  }

  /** Records that the frame at `seq` of the match was applied. */
  applied(matchId: number, seq: number): void {
    const current = this.held.get(matchId);
    if (current === undefined || seq > current) this.held.set(matchId, seq);
    this.seen(seq);
  }

  /** Records a position seen without a match (a heartbeat's `seq`). */
  seen(seq: number): void {
    if (seq > this.newest) this.newest = seq;
  }

  of(matchId: number): number | undefined {
    return this.held.get(matchId);
  }

  forget(matchId: number): void {
    this.held.delete(matchId);
  }

  clear(): void {
    this.held.clear();
    this.newest = 0;
  }

  /**
   * Where a subscription over several matches resumes: the smallest position
   * held among them, so nothing of any match is skipped (frames the client
   * already has come again and are ignored as stale). Undefined when none is held.
   */
  resumePointFor(matchIds: Iterable<number> = this.held.keys()): number | undefined {
    let smallest: number | undefined;
    for (const id of matchIds) {
      const seq = this.held.get(id);
      if (seq !== undefined && (smallest === undefined || seq < smallest)) smallest = seq;
    }
    return smallest;
  }

  get newestSeen(): number {
    return this.newest;
  }
}
