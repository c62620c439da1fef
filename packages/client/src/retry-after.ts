/**
 * Milliseconds a `Retry-After` header asks to wait: delta-seconds or an HTTP
 * date. Undefined when absent or unreadable; never negative.
 */
export function retryAfterMs(
  header: string | null | undefined,
  nowMs: number = Date.now(),
): number | undefined {
  if (header === null || header === undefined) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date always names a weekday or month; a bare "-1" is not one.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
