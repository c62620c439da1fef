import type { ChangePosition } from '@app/messaging';
import type { MatchOdds } from '../book/domain/match-odds';
import { type BookFrame, snapshotFrame } from './book-frames';

/** How long a snapshot frame may serve later subscribers of its match: a burst of subscribes, not a copy of the book. */
const SHARED_FOR_MS = 1000;

/**
 * The snapshot frames of a burst of subscribes, encoded once per state of a
 * match: clients that all send subscribe_all after a reconnect get the same
 * bytes for each match, as updates already do. A frame serves again only the
 * very state it was built from (the same position and ts, and the same
 * selection objects in the same order: the replica replaces a market's
 * selections, it never edits them), and every frame is let go within
 * SHARED_FOR_MS, so a big book is not kept twice, once as JSON.
 */
export class SnapshotFrames {
  private readonly frames = new Map<number, BookFrame>();
  private expiry?: NodeJS.Timeout;

  frame(odds: MatchOdds, position: ChangePosition): BookFrame {
    const held = this.frames.get(odds.match_id);
    if (held && builtFrom(held, odds, position)) return held;
    const built = snapshotFrame(odds, position);
    this.frames.set(odds.match_id, built);
    if (!this.expiry) {
      this.expiry = setTimeout(() => this.clear(), SHARED_FOR_MS);
      this.expiry.unref();
    }
    return built;
  }

  /** Frames held for sharing. */
  get size(): number {
    return this.frames.size;
  }

  clear(): void {
    clearTimeout(this.expiry);
    this.expiry = undefined;
    this.frames.clear();
  }
}

function builtFrom(frame: BookFrame, odds: MatchOdds, position: ChangePosition): boolean {
  const meta = frame.meta;
  if (meta?.kind !== 'snapshot') return false;
  const held = meta.odds;
  if (
    meta.position.seq !== position.seq ||
    meta.position.prevSeq !== position.prevSeq ||
    held.sport_id !== odds.sport_id ||
    held.ts !== odds.ts ||
    held.selections.length !== odds.selections.length
  ) {
    return false;
  }
  for (let i = 0; i < odds.selections.length; i++) {
    if (held.selections[i] !== odds.selections[i]) return false;
  }
  return true;
}
