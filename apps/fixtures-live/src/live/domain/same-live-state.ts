import type { UpstreamLiveState } from '../../upstream/livescores.types';

/**
 * True when two upstream states say the same thing. The provider re-sends
 * unchanged states now and then; those must not produce an update. Only the
 * state is compared: the envelope's seq and sent_at are not content.
 */
export function sameLiveState(a: UpstreamLiveState, b: UpstreamLiveState): boolean {
  return deepEqual(a, b);
}

/**
 * Runs for every state the provider sends, so it allocates nothing: no
 * entry lists or maps per object compared.
 */
function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const isArray = Array.isArray(a);
  if (isArray !== Array.isArray(b)) return false;
  if (isArray) {
    const left = a as unknown[];
    const right = b as unknown[];
    if (left.length !== right.length) return false;
    for (let i = 0; i < left.length; i++) if (!deepEqual(left[i], right[i])) return false;
    return true;
  }
  // Absent and undefined are the same thing in a JSON-born state.
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let defined = 0;
  for (const key in left) {
    if (!hasOwn(left, key) || left[key] === undefined) continue;
    defined++;
    if (!hasOwn(right, key) || !deepEqual(left[key], right[key])) return false;
  }
  for (const key in right) if (hasOwn(right, key) && right[key] !== undefined) defined--;
  return defined === 0;
}

function hasOwn(o: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}
