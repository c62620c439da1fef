import type { ChangePosition } from '@app/messaging';
import { type MatchOdds, sameOddsState } from '../book/domain/match-odds';
import { HeldEncodings } from '../common/held-encodings';
import { type BookFrame, snapshotFrame } from './book-frames';

/** How long a snapshot frame may serve later subscribers of its match: a burst of subscribes, not a copy of the book. */
const SHARED_FOR_MS = 1000;

/**
 * The snapshot frames of a burst of subscribes, encoded once per state of a
 * match: clients that all send subscribe_all after a reconnect get the same
 * bytes for each match, as updates already do. A frame serves again only the
 * state it was built from: the same position, and `sameOddsState`.
 */
export class SnapshotFrames {
  private readonly frames = new HeldEncodings<BookFrame>(SHARED_FOR_MS);

  frame(odds: MatchOdds, position: ChangePosition): BookFrame {
    return this.frames.get(
      odds.match_id,
      (held) => builtFrom(held, odds, position),
      () => snapshotFrame(odds, position),
    );
  }

  /** Frames held for sharing. */
  get size(): number {
    return this.frames.size;
  }

  clear(): void {
    this.frames.clear();
  }
}

function builtFrom(frame: BookFrame, odds: MatchOdds, position: ChangePosition): boolean {
  const meta = frame.meta;
  return (
    meta?.kind === 'snapshot' &&
    meta.position.seq === position.seq &&
    meta.position.prevSeq === position.prevSeq &&
    sameOddsState(meta.odds, odds)
  );
}
