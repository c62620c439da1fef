import { type FrameResult, parseClientFrame, readAction, readIntegerField } from '@app/streaming';

export const STREAM_ACTIONS = ['subscribe', 'unsubscribe'] as const;
export type StreamAction = (typeof STREAM_ACTIONS)[number];

/** A client's request on /stream: `{"action": "subscribe" | "unsubscribe", "match_id": <integer>}`. */
export interface StreamRequest {
  readonly action: StreamAction;
  readonly matchId: number;
}

/** Reads one client frame, or names what is wrong with it. */
export function parseStreamRequest(text: string): FrameResult<StreamRequest> {
  const frame = parseClientFrame(text);
  if (!frame.ok) return frame;
  const action = readAction(frame.value, STREAM_ACTIONS);
  if (!action.ok) return action;
  const matchId = readIntegerField(frame.value, 'match_id');
  if (!matchId.ok) return matchId;
  return { ok: true, value: { action: action.value, matchId: matchId.value } };
}
