import type { Selection } from './selection';

/**
 * Selections as a client must see them at `nowMs`: a selection whose cutoff has passed
 * is locked even before the ingest has published the lock. Returns the same array when
 * nothing needs to change, so reads of open books do not allocate.
 */
export function selectionsAt(selections: readonly Selection[], nowMs: number): readonly Selection[] {
  let out: Selection[] | undefined;
  for (let i = 0; i < selections.length; i++) {
    const s = selections[i];
    if (s.status === 'unlocked' && nowMs >= Date.parse(s.cutoff_at)) {
      out ??= selections.slice();
      out[i] = { ...s, status: 'locked' };
    }
  }
  return out ?? selections;
}
