const KEY_TOKEN = /sk_[A-Za-z0-9_-]+/g;
const KEY_QUERY = /([?&]key=)[^&#\s]*/gi;

/**
 * Removes anything that may be an API key from text bound for a response or
 * a log: `sk_…` tokens and `key=` query values (a mistyped key need not start
 * with the prefix).
 */
export function redactKeys(text: string): string {
  return text.replace(KEY_QUERY, '$1[redacted]').replace(KEY_TOKEN, '[redacted]');
}
