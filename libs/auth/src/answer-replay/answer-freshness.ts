import type { PreparedJson } from '@app/http-edge';

/**
 * Whether an answer a handler returned is still the one the full pipeline
 * would give now. Each app provides it for the answers it lets
 * `AnswerReplayDoor` replay: fixtures-live from its catalog cache, odds-passthrough
 * from the match's state in its replica.
 */
export abstract class AnswerFreshness {
  abstract isFresh(json: PreparedJson): boolean;
}
