/** The part of a soccer snapshot's clock that a display needs. */
export interface ClockLike {
  readonly minute: number;
  readonly second: number;
  readonly running: boolean;
  /** Wall time that minute:second corresponds to; absent before kick-off. */
  readonly as_of?: string;
}

/**
 * Match seconds to display at `nowMs`: `minute*60 + second`, plus the time
 * since `as_of` while the clock runs. A stopped clock, or one without an
 * anchor, shows minute:second unchanged. A wall clock behind `as_of` never
 * moves the display backwards.
 */
export function projectClockSeconds(clock: ClockLike, nowMs: number): number {
  const base = clock.minute * 60 + clock.second;
  if (!clock.running || clock.as_of === undefined) return base;
  const anchor = Date.parse(clock.as_of);
  if (Number.isNaN(anchor)) return base;
  return base + Math.max(0, Math.floor((nowMs - anchor) / 1000));
}

/** `mm:ss` of a projected clock (minutes may exceed 99 in extra time). */
export function formatClock(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  return `${String(minutes).padStart(2, '0')}:${String(rest).padStart(2, '0')}`;
}
