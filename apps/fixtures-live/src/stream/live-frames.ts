import type { ChangePosition } from '@app/messaging';
import { deferredFrame, encodeFrame, type OutgoingFrame } from '@app/streaming';

export type LiveOp = 'snapshot' | 'update';

/** What conflation needs to rebuild a frame: its op, position and the snapshot JSON it carries. */
export interface LiveFrameMeta {
  readonly op: LiveOp;
  readonly position: ChangePosition;
  readonly payload: string;
}

export type LiveFrame = OutgoingFrame<LiveFrameMeta>;

/**
 * A data frame around the snapshot JSON exactly as published (match_id included),
 * by concatenation: the payload is never parsed or re-serialised.
 */
export function liveFrame(op: LiveOp, matchId: number, position: ChangePosition, payload: string): LiveFrame {
  return {
    data: encodeFrame(liveFrameText(op, position, payload)),
    key: matchKey(matchId),
    meta: { op, position, payload },
  };
}

/** `seq` and `prev_seq` sit beside `op`, so `data` stays the snapshot object. */
export function liveFrameText(op: LiveOp, position: ChangePosition, payload: string): string {
  return `{"op":"${op}","seq":${position.seq},"prev_seq":${position.prevSeq ?? 'null'},"data":${payload}}`;
}

/** `{"op": "heartbeat", ...}`: sent only at the period a client asks for with `heartbeat_ms`. */
export function heartbeatFrame(ts: number, seq: number, feedHealthy: boolean): LiveFrame {
  return {
    data: encodeFrame(JSON.stringify({ op: 'heartbeat', ts, seq, feed_healthy: feedHealthy })),
    key: HEARTBEAT_KEY,
  };
}

/** Beats conflate with each other: a slow client needs only the newest. */
export const HEARTBEAT_KEY = 'heartbeat';

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
  const { payload, position } = next.meta;
  // "update" and "snapshot" differ by two characters; position and payload are the newer frame's.
  return deferredFrame(
    { key: next.key, meta: { op: 'snapshot', position, payload }, byteLength: next.data.length + 2 },
    () => encodeFrame(liveFrameText('snapshot', position, payload)),
  );
}
