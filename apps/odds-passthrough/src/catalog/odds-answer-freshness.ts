import { Injectable } from '@nestjs/common';
import { AnswerFreshness } from '@app/auth';
import type { PreparedJson } from '@app/http-edge';

/**
 * Whether a `GET /odds` answer is still the match's state, for the replay of
 * answers at the front door (ADR 023, 026). Each answer is tracked with a check
 * that reads the match again, statuses evaluated now: a price, a `ts`, or a
 * lock its cutoff brings makes it stale. Weak: an entry goes with its answer.
 */
@Injectable()
export class OddsAnswerFreshness extends AnswerFreshness {
  private readonly checks = new WeakMap<PreparedJson, () => boolean>();

  track(json: PreparedJson, stillCurrent: () => boolean): void {
    this.checks.set(json, stillCurrent);
  }

  isFresh(json: PreparedJson): boolean {
    return this.checks.get(json)?.() ?? false;
  }
}
