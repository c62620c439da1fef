import type { UpstreamLiveState } from '../../upstream/livescores.types';

/**
 * True when two upstream states say the same thing. The provider re-sends
 * unchanged states now and then; those must not produce an update. Only the
 * state is compared: the envelope's seq and sent_at are not content.
 */
export function sameLiveState(a: UpstreamLiveState, b: UpstreamLiveState): boolean {
  return deepEqual(a, b);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => deepEqual(item, b[index]));
  }
  // Absent and undefined are the same thing in a JSON-born state.
  const left = definedEntries(a as Record<string, unknown>);
  const right = definedEntries(b as Record<string, unknown>);
  if (left.size !== right.size) return false;
  for (const [key, value] of left) {
    if (!right.has(key) || !deepEqual(value, right.get(key))) return false;
  }
  return true;
}

function definedEntries(o: Record<string, unknown>): Map<string, unknown> {
  return new Map(Object.entries(o).filter(([, value]) => value !== undefined));
}
