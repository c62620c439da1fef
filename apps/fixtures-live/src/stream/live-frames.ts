import { deferredFrame, encodeFrame, type OutgoingFrame } from '@app/streaming';

export type LiveOp = 'snapshot' | 'update';

/** What conflation needs to rebuild a frame: its op and the snapshot JSON it carries. */
export interface LiveFrameMeta {
  readonly op: LiveOp;
  readonly payload: string;
}

export type LiveFrame = OutgoingFrame<LiveFrameMeta>;

/**
 * A data frame around the snapshot JSON exactly as published (match_id included),
 * by concatenation: the payload is never parsed or re-serialised.
 */
export function liveFrame(op: LiveOp, matchId: number, payload: string): LiveFrame {
  return {
    data: encodeFrame(`{"op":"${op}","data":${payload}}`),
    key: matchKey(matchId),
    meta: { op, payload },
  };
}

export function errorFrameText(error: string): string {
  return JSON.stringify({ op: 'error', error });
}

export function matchKey(matchId: number): string {
  return `match:${matchId}`;
}

/**
 * A slow client needs only the latest state of each match. A waiting snapshot
 * stays a snapshot (it is the client's first frame for that match) but takes
 * the newer state.
 */
export function conflateLiveFrames(pending: LiveFrame, next: LiveFrame): LiveFrame {
  if (pending.meta?.op !== 'snapshot' || next.meta?.op !== 'update') return next;
  const payload = next.meta.payload;
  // "update" and "snapshot" differ by two characters; the payload is the same.
  return deferredFrame(
    { key: next.key, meta: { op: 'snapshot', payload }, byteLength: next.data.length + 2 },
    () => encodeFrame(`{"op":"snapshot","data":${payload}}`),
  );
}
