/**
 * The next version of something whose last version was `previous`: greater than it,
 * and at least the current epoch milliseconds, so that a process restarted without
 * its persisted versions still issues versions greater than any it issued before.
 */
export function nextVersion(previous: number | undefined, nowMs: number): number {
  return Math.max((previous ?? 0) + 1, Math.floor(nowMs));
}
