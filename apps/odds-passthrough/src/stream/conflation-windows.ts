import { type BookFrame, conflateBookFrames } from './book-frames';

/** Where a subscription's frames go: sent only while it is open, also when a window closes later. */
export interface FrameTarget {
  readonly isOpen: boolean;
  send(frame: BookFrame): unknown;
}

interface Window {
  /** Epoch ms at which the window closes. */
  ends: number;
  /** Frames that arrived inside the window, merged into one. */
  held?: BookFrame;
  timer?: NodeJS.Timeout;
}

/**
 * One subscription's `conflate_ms`: a match's frame goes out at once when no
 * window of that match is open, and opens one; frames arriving inside it are
 * merged (the book's merge rules) and the merged frame goes out when it
 * closes, opening the next. With 0, every frame goes out as it comes.
 */
export class ConflationWindows {
  private readonly windows = new Map<number, Window>();

  constructor(
    private readonly periodMs: number,
    private readonly now: () => number,
  ) {}

  /** With no window (0), a plain call per frame: it runs for every recipient of every change. */
  offer(matchId: number, frame: BookFrame, to: FrameTarget): void {
    if (this.periodMs <= 0) {
      if (to.isOpen) to.send(frame);
      return;
    }
    const now = this.now();
    const window = this.windows.get(matchId);
    if (window && now < window.ends) {
      window.held = window.held ? conflateBookFrames(window.held, frame) : frame;
      window.timer ??= setTimeout(() => this.close(matchId, window, to), window.ends - now);
      window.timer.unref();
      return;
    }
    this.windows.set(matchId, { ends: now + this.periodMs });
    if (to.isOpen) to.send(frame);
  }

  /** Drops every open window and what it holds (the subscription ended). */
  clear(): void {
    for (const window of this.windows.values()) clearTimeout(window.timer);
    this.windows.clear();
  }

  private close(matchId: number, window: Window, to: FrameTarget): void {
    window.timer = undefined;
    const held = window.held;
    window.held = undefined;
    if (this.windows.get(matchId) !== window || !held) return;
    window.ends = this.now() + this.periodMs;
    if (to.isOpen) to.send(held);
  }
}
