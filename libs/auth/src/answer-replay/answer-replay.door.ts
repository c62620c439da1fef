import { Injectable, Logger, type OnModuleInit, Optional } from '@nestjs/common';
import type { FrontDoor } from '@app/http-edge';
import { Metrics } from '@app/observability';
import { AuthService } from '../auth.service';
import { extractApiKey } from '../extract-api-key';
import type { Principal } from '../key-record';
import { RateLimits } from '../rate-limit/rate-limits';
import { applyRestRateLimit } from '../rate-limit/rest-rate-limit';
import { AnswerFreshness } from './answer-freshness';
import { AnswerReplay, type RecordedAnswer } from './answer-replay';
import { FirstAnswers } from './first-answers';

type Take = Parameters<FrontDoor>[2];

/**
 * Gives a key the answer the full pipeline last gave it for the same request
 * target, while that answer is still fresh (`AnswerFreshness`: fixtures-live's
 * catalog pages, ADR 019; odds-passthrough's match odds, ADR 026), at the HTTP
 * server's front door (ADR 023): no Express routing, no Nest guard, pipe or
 * handler, so the answer costs what sending it costs. What a request must
 * still get is done here as the pipeline does it: the request log, metrics
 * and CORS headers (the door's first steps), the key looked up (expiry and
 * revocation included), its rate charged with the same headers, and the
 * answer sent through the same `res.send` (content type, entity tag, 304).
 * Anything else (no recording, another principal object because the key
 * changed, a refused key, a key over its rate, a stale answer) is passed to
 * the full pipeline untouched, which answers exactly as it would have; a
 * refused rate takes no token, so the pipeline refuses it again with its 429.
 *
 * Where the app provides `FirstAnswers`, a target it claims is answered here
 * the first time too, under the same rules, and recorded for replay; what
 * it cannot answer with 200 goes to the full pipeline the same way.
 */
@Injectable()
export class AnswerReplayDoor implements OnModuleInit {
  private readonly logger = new Logger(AnswerReplayDoor.name);
  /** Requests answered by a replay since start, read by the metrics endpoint. */
  private replayed = 0;
  /** Requests first answered at the door (`FirstAnswers`) since start. */
  private answeredFirst = 0;

  constructor(
    private readonly replay: AnswerReplay,
    private readonly freshness: AnswerFreshness,
    private readonly auth: AuthService,
    @Optional() private readonly rateLimits?: RateLimits,
    @Optional() private readonly metrics?: Metrics,
    @Optional() private readonly firstAnswers?: FirstAnswers,
  ) {}

  onModuleInit(): void {
    this.metrics?.observeCounter(
      'http_answers_replayed_total',
      'Answers given again to the same key without the full request pipeline',
      () => this.replayed,
    );
    if (this.firstAnswers) {
      this.metrics?.observeCounter(
        'http_answers_first_at_door_total',
        'Answers given the first time a key asked, at the front door, without the full request pipeline',
        () => this.answeredFirst,
      );
    }
  }

  readonly visit: FrontDoor = (request, pass, take) => {
    const url = request.url;
    if (url === undefined || !(this.replay.knows(url) || this.firstAnswers?.claims(url))) return pass();
    const key = extractApiKey(request.headers, undefined);
    if (key === undefined) return pass();
    this.auth.identify(key).then(
      (principal) => this.answer(principal, url, pass, take),
      // The full pipeline answers a refused key, or PostgreSQL out of reach, as it always does.
      () => pass(),
    );
  };

  private answer(principal: Principal, url: string, pass: () => void, take: Take): void {
    let found: { answer: RecordedAnswer; first: boolean } | undefined;
    try {
      found = this.find(principal, url);
    } catch (error) {
      // Nothing is taken yet: the full pipeline answers, with its own handling of the fault.
      this.logger.error(`Finding an answer failed: ${describe(error)}`);
    }
    if (found === undefined) return pass();
    const admission = this.rateLimits?.admit(principal);
    if (admission?.allowed === false) return pass();
    const { answer, first } = found;
    const { request, response } = take();
    try {
      if (admission) applyRestRateLimit(admission, response);
      request.route = answer.route;
      if (first) {
        this.answeredFirst += 1;
        this.replay.remember(url, principal, answer);
      } else {
        this.replayed += 1;
      }
      response.status(200).setHeader('Content-Type', answer.contentType);
      response.send(answer.json);
    } catch (error) {
      // Past `take` the pipeline cannot have the request any more; the client sees the connection end.
      this.logger.error(`Replaying an answer failed: ${describe(error)}`);
      response.destroy();
    }
  }

  /** The recorded answer while it is fresh, else a first answer where the app gives one. */
  private find(principal: Principal, url: string): { answer: RecordedAnswer; first: boolean } | undefined {
    const recorded = this.replay.find(url, principal);
    if (recorded !== undefined && this.freshness.isFresh(recorded.json)) {
      return { answer: recorded, first: false };
    }
    const built = this.firstAnswers?.answer(url, principal);
    return built && { answer: built, first: true };
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
