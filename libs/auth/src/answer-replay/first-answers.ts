import type { Principal } from '../key-record';
import type { RecordedAnswer } from './answer-replay';

/**
 * Answers an app can give at the front door the first time a key asks for
 * them, not only when they are asked again (`AnswerReplay`): those whose
 * whole pipeline, for a request that succeeds, is a lookup in memory. An app
 * provides it for `AnswerReplayDoor` where first answers are most of the
 * traffic (odds-passthrough: a client walking the book match by match).
 */
export abstract class FirstAnswers {
  /** Whether `url` has the shape of a target this may answer: looked at before the key is looked up. */
  abstract claims(url: string): boolean;

  /**
   * The answer the full pipeline would give `principal` for `url` with 200,
   * built or taken from the app's own holder; `undefined` wherever the
   * pipeline would answer anything else (its own refusal, in its own shape).
   */
  abstract answer(url: string, principal: Principal): RecordedAnswer | undefined;
}
