/** `YYYY-MM-DDTHH:MM:SSZ`, the one timestamp shape of the public API (sub-seconds truncated). */
export function formatUtcSeconds(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/** The same instant rendered as the public shape; null when the text is not a timestamp. */
export function normalizeUtcSeconds(timestamp: string): string | null {
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? null : formatUtcSeconds(new Date(ms));
}
