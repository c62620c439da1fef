import type { LiveSnapshot } from './snapshot.types';
import { formatUtcSeconds } from './utc-time';

/**
 * The snapshot as a REST response at `now`: a running soccer clock is advanced
 * by the time elapsed since its anchor and re-anchored at `now`, so clients can
 * display it as-is. Anything else comes back unchanged. Never mutates its input.
 */
export function projectClock<T extends LiveSnapshot>(snapshot: T, now: Date): T {
  if (snapshot.sport !== 'soccer') return snapshot;
  const { clock } = snapshot;
  if (!clock.running || clock.as_of === undefined) return snapshot;
  const anchor = Date.parse(clock.as_of);
  if (Number.isNaN(anchor)) return snapshot;
  const nowSeconds = Math.floor(now.getTime() / 1000);
  // A clock anchored in the future (skew) is shown as it is, never run backwards.
  const elapsed = Math.max(0, nowSeconds - Math.floor(anchor / 1000));
  const total = clock.minute * 60 + clock.second + elapsed;
  return {
    ...snapshot,
    clock: {
      ...clock,
      minute: Math.floor(total / 60),
      second: total % 60,
      as_of: formatUtcSeconds(new Date(nowSeconds * 1000)),
    },
  };
}
