import type { ChangePosition } from '@app/messaging';
import { deferredFrame, encodeFrame, frameBytes, type OutgoingFrame } from '@app/streaming';
import { type MatchUpdate, positionFields } from '../book/book-messages';
import type { MatchOdds } from '../book/domain/match-odds';
import type { Selection } from '../book/domain/selection';

/** Every frame of a match carries the position of the newest change it includes. */
export type BookFrameMeta =
  | { readonly kind: 'snapshot'; readonly odds: MatchOdds; readonly position: ChangePosition }
  | { readonly kind: 'update'; readonly update: MatchUpdate; readonly position: ChangePosition };

export type BookFrame = OutgoingFrame<BookFrameMeta>;

export function matchKey(matchId: number): string {
  return `match:${matchId}`;
}

export const HEARTBEAT_KEY = 'heartbeat';

function snapshotText(odds: MatchOdds, position: ChangePosition): string {
  return `{"type":"snapshot",${positionFields(position)}${JSON.stringify(odds).slice(1)}`;
}

function updateText(update: MatchUpdate, position: ChangePosition): string {
  return `{"type":"update",${positionFields(position)}${JSON.stringify(update).slice(1)}`;
}

export function snapshotFrame(odds: MatchOdds, position: ChangePosition): BookFrame {
  return {
    data: encodeFrame(snapshotText(odds, position)),
    key: matchKey(odds.match_id),
    meta: { kind: 'snapshot', odds, position },
  };
}

/** Wraps the update frame the book replica serialised once (position included), for every subscriber of the match. */
export function updateFrame(update: MatchUpdate, serialized: string, position: ChangePosition): BookFrame {
  return {
    data: encodeFrame(serialized),
    key: matchKey(update.match_id),
    meta: { kind: 'update', update, position },
  };
}

/** `seq`: the newest change-log position the replica has applied for the book. */
export function heartbeatFrame(ts: number, seq: number, feedHealthy: boolean): BookFrame {
  return {
    data: encodeFrame(JSON.stringify({ type: 'heartbeat', ts, seq, feed_healthy: feedHealthy })),
    key: HEARTBEAT_KEY,
  };
}

/** A change the change log returned (the ingest's frame, without position) as this stream sends it. */
export function replayedFrame(published: string, position: ChangePosition): BookFrame | undefined {
  let frame: Partial<MatchUpdate> & { type?: unknown };
  try {
    frame = JSON.parse(published) as Partial<MatchUpdate> & { type?: unknown };
  } catch {
    return undefined;
  }
  if (frame.type !== 'update' || !Number.isInteger(frame.match_id)) return undefined;
  const update: MatchUpdate = {
    match_id: frame.match_id as number,
    sport_id: frame.sport_id as number,
    ts: frame.ts as number,
    selections: frame.selections ?? [],
    removed_market_keys: frame.removed_market_keys ?? [],
  };
  return updateFrame(update, updateText(update, position), position);
}

export function errorFrameText(error: string): string {
  return JSON.stringify({ type: 'error', error });
}

/**
 * Merges a newer frame of a match into one still waiting (for a slow client,
 * or for the end of a `conflate_ms` window), market by market: the latest
 * version of each market_key wins, removals are united (a market re-listed
 * after its removal counts as present), a waiting snapshot stays a snapshot,
 * and the merged frame carries the newer frame's position.
 */
export function conflateBookFrames(pending: BookFrame, next: BookFrame): BookFrame {
  const before = pending.meta;
  const after = next.meta;
  if (!before || after?.kind !== 'update') return next;
  const bytesPerSelection =
    (frameBytes(pending) + frameBytes(next)) /
    Math.max(1, selectionsOf(before).length + after.update.selections.length);
  if (before.kind === 'snapshot') {
    const selections = mergeMarkets(
      before.odds.selections,
      after.update.selections,
      after.update.removed_market_keys,
    );
    const odds: MatchOdds = { ...before.odds, ts: Math.max(before.odds.ts, after.update.ts), selections };
    const position = after.position;
    return deferredFrame(
      {
        key: matchKey(odds.match_id),
        meta: { kind: 'snapshot', odds, position },
        byteLength: estimate(bytesPerSelection, selections.length),
      },
      () => encodeFrame(snapshotText(odds, position)),
    );
  }
  const selections = mergeMarkets(
    before.update.selections,
    after.update.selections,
    after.update.removed_market_keys,
  );
  const present = new Set(selections.map((selection) => selection.market_key));
  const removed = [
    ...new Set([...before.update.removed_market_keys, ...after.update.removed_market_keys]),
  ].filter((key) => !present.has(key));
  const update: MatchUpdate = {
    match_id: after.update.match_id,
    sport_id: after.update.sport_id,
    ts: Math.max(before.update.ts, after.update.ts),
    selections,
    removed_market_keys: removed,
  };
  const position = after.position;
  return deferredFrame(
    {
      key: matchKey(update.match_id),
      meta: { kind: 'update', update, position },
      byteLength: estimate(bytesPerSelection, selections.length),
    },
    () => encodeFrame(updateText(update, position)),
  );
}

function selectionsOf(meta: BookFrameMeta): readonly Selection[] {
  return meta.kind === 'snapshot' ? meta.odds.selections : meta.update.selections;
}

/**
 * A merged frame is encoded only when the socket takes it; until then it
 * counts against the queue's bound by the average selection size of the
 * frames it merged (the envelope included, so the estimate errs high).
 */
function estimate(bytesPerSelection: number, selections: number): number {
  return Math.ceil(bytesPerSelection * Math.max(1, selections));
}

/** `held` with the markets of `incoming` replaced where newer and the `removed` markets dropped. */
function mergeMarkets(
  held: readonly Selection[],
  incoming: readonly Selection[],
  removed: readonly string[],
): Selection[] {
  const heldVersion = new Map<string, number>();
  for (const selection of held) heldVersion.set(selection.market_key, selection.version);
  const replacing = new Set<string>();
  for (const selection of incoming) {
    const version = heldVersion.get(selection.market_key);
    if (version === undefined || selection.version > version) replacing.add(selection.market_key);
  }
  const dropped = new Set(removed);
  const kept = held.filter(
    (selection) => !replacing.has(selection.market_key) && !dropped.has(selection.market_key),
  );
  return [...kept, ...incoming.filter((selection) => replacing.has(selection.market_key))];
}
