import type { ChangePosition } from '@app/messaging';
import type { FeedHealth } from './domain/feed-health';
import type { PublicMatch } from './domain/public-match';
import type { Selection } from './domain/selection';

/*
 * What the odds ingest publishes on NATS for api replicas, and the `update`
 * frame it shares with the stream: the payload types, their serialisers and
 * the replicas' reading of an update frame.
 */

/** Public sport object. */
export interface SportInfo {
  readonly id: number;
  readonly name: string;
}

/** Public league object. */
export interface LeagueInfo {
  readonly id: number;
  readonly name: string;
  readonly sport_id: number;
}

/** Public match object: `id`, `sport_id`, `league_id`, teams and start time; `special` only on specials. */
export type MatchInfo = PublicMatch;

export interface SportLeagues {
  readonly sport_id: number;
  readonly leagues: readonly LeagueInfo[];
}

/**
 * Published by the ingest on `DynamicSubjects.oddsCatalog(book)` before the
 * match frames of the same poll: what api replicas need for their lists.
 * `sports`, when present, replaces the whole list; `leagues` replaces the
 * lists of the sports it names; matches are upserts and removals.
 */
export interface CatalogMessage {
  readonly sports?: readonly SportInfo[];
  /** Each entry replaces the league list of one sport. */
  readonly leagues?: readonly SportLeagues[];
  readonly matches?: readonly MatchInfo[];
  readonly removed_matches?: readonly number[];
}

/**
 * Published by the ingest on `DynamicSubjects.oddsHealth(book)` after every
 * poll, and every second while a poll is late (HealthBeat); `isFeedHealthy`
 * (domain) judges it.
 */
export type FeedHealthMessage = FeedHealth;

/** The `update` frame of the stream, which the ingest publishes (without position) in batches on `DynamicSubjects.oddsChanges`. */
export interface UpdateFrame {
  readonly type: 'update';
  readonly seq?: number;
  readonly prev_seq?: number | null;
  readonly match_id: number;
  readonly sport_id: number;
  readonly ts: number;
  readonly selections: readonly Selection[];
  readonly removed_market_keys: readonly string[];
}

/**
 * The position of a state that never reached the change log (stored before
 * positions existed): the log's start, so a client resuming from it is
 * answered with a snapshot unless every change since is still retained.
 */
export const UNLOGGED: ChangePosition = { seq: 1, prevSeq: null };

const UPDATE_PREFIX = '{"type":"update",';

/** The stream's text of an update the ingest published, with its position after `type`. */
export function positionedUpdateText(published: string, position: ChangePosition): string {
  if (!published.startsWith(UPDATE_PREFIX)) throw new Error('not an update frame');
  return `${UPDATE_PREFIX}${positionFields(position)}${published.slice(UPDATE_PREFIX.length)}`;
}

/** `"seq":N,"prev_seq":P,` as frames carry them right after their type. */
export function positionFields(position: ChangePosition): string {
  return `"seq":${position.seq},"prev_seq":${position.prevSeq ?? 'null'},`;
}

/**
 * An `update` frame; with a position, as the stream sends it, without, as
 * the ingest publishes it (the position then travels in message headers).
 */
export function serializeUpdateFrame(...frame: Parameters<typeof updateFrame>): string {
  return JSON.stringify(updateFrame(...frame));
}

/**
 * `serializeUpdateFrame` (no position) with the selections array already
 * serialised: the same text, when `selectionsJson` is `JSON.stringify` of
 * the selections.
 */
export function updateFrameText(
  matchId: number,
  sportId: number,
  ts: number,
  selectionsJson: string,
  removedMarketKeys: readonly string[],
): string {
  return `{"type":"update","match_id":${matchId},"sport_id":${sportId},"ts":${ts},"selections":${selectionsJson},"removed_market_keys":${JSON.stringify(removedMarketKeys)}}`;
}

/** The `update` frame object that `serializeUpdateFrame` writes, fields in their wire order. */
export function updateFrame(
  matchId: number,
  sportId: number,
  ts: number,
  selections: readonly Selection[],
  removedMarketKeys: readonly string[],
  position?: ChangePosition,
): UpdateFrame {
  // Two literals, not a spread of the optional position: the ingest builds one per changed match.
  return position
    ? {
        type: 'update',
        seq: position.seq,
        prev_seq: position.prevSeq,
        match_id: matchId,
        sport_id: sportId,
        ts,
        selections,
        removed_market_keys: removedMarketKeys,
      }
    : {
        type: 'update',
        match_id: matchId,
        sport_id: sportId,
        ts,
        selections,
        removed_market_keys: removedMarketKeys,
      };
}

/**
 * The body of an `update` frame: one match's change as the ingest publishes it and a replica
 * reads it; the stream keeps it beside its bytes to merge a slow client's updates.
 */
export interface MatchUpdate {
  readonly match_id: number;
  readonly sport_id: number;
  readonly ts: number;
  readonly selections: readonly Selection[];
  readonly removed_market_keys: readonly string[];
}

/**
 * An `update` frame as an api replica reads it from NATS. The ingest writes these frames; anything
 * else on the subject is ignored rather than trusted.
 */
export function parseUpdateFrame(text: string): MatchUpdate | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const frame = value as Record<string, unknown>;
  if (
    frame.type !== 'update' ||
    !Number.isInteger(frame.match_id) ||
    !Number.isInteger(frame.sport_id) ||
    !Number.isInteger(frame.ts) ||
    !Array.isArray(frame.selections) ||
    !Array.isArray(frame.removed_market_keys)
  ) {
    return undefined;
  }
  const selections = frame.selections as unknown[];
  if (!selections.every(isSelection)) return undefined;
  if (!(frame.removed_market_keys as unknown[]).every((key) => typeof key === 'string')) return undefined;
  return frame as unknown as MatchUpdate;
}

function isSelection(value: unknown): value is Selection {
  if (typeof value !== 'object' || value === null) return false;
  const selection = value as Record<string, unknown>;
  return (
    typeof selection.market_key === 'string' &&
    Number.isInteger(selection.version) &&
    typeof selection.cutoff_at === 'string' &&
    (selection.status === 'locked' || selection.status === 'unlocked')
  );
}
