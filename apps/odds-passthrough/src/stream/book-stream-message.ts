import {
  type FrameResult,
  parseClientFrame,
  readAction,
  readIntegerField,
  readOptionalIntegerField,
} from '@app/streaming';

export const BOOK_STREAM_ACTIONS = ['subscribe', 'unsubscribe', 'subscribe_all'] as const;

/**
 * A client's request on `<prefix>/data`: `{"action": "subscribe" | "unsubscribe", "match": ID}`
 * or `{"action": "subscribe_all"}`, optionally with `"sport": ID`.
 */
export type BookStreamRequest =
  | { readonly action: 'subscribe' | 'unsubscribe'; readonly match: number }
  | { readonly action: 'subscribe_all'; readonly sport: number | undefined };

/** Reads one client frame, or names what is wrong with it. */
export function parseBookStreamRequest(text: string): FrameResult<BookStreamRequest> {
  const frame = parseClientFrame(text);
  if (!frame.ok) return frame;
  const action = readAction(frame.value, BOOK_STREAM_ACTIONS);
  if (!action.ok) return action;
  if (action.value === 'subscribe_all') {
    const sport = readOptionalIntegerField(frame.value, 'sport');
    return sport.ok ? { ok: true, value: { action: 'subscribe_all', sport: sport.value } } : sport;
  }
  const match = readIntegerField(frame.value, 'match');
  return match.ok ? { ok: true, value: { action: action.value, match: match.value } } : match;
}
