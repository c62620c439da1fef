import { Injectable, Logger, type OnModuleInit, Optional } from '@nestjs/common';
import type { FrontDoor } from '@app/http-edge';
import { Metrics } from '@app/observability';
import { AuthService } from '../auth.service';
import { extractApiKey } from '../extract-api-key';
import type { Principal } from '../key-record';
import { RateLimits } from '../rate-limit/rate-limits';
import { applyRestRateLimit } from '../rate-limit/rest-rate-limit';
import { AnswerFreshness } from './answer-freshness';
import { AnswerReplay } from './answer-replay';

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
 */
@Injectable()
export class AnswerReplayDoor implements OnModuleInit {
  private readonly logger = new Logger(AnswerReplayDoor.name);
  /** Requests answered by a replay since start, read by the metrics endpoint. */
  private replayed = 0;

  constructor(
    private readonly replay: AnswerReplay,
    private readonly freshness: AnswerFreshness,
    private readonly auth: AuthService,
    @Optional() private readonly rateLimits?: RateLimits,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  onModuleInit(): void {
    this.metrics?.observeCounter(
      'http_answers_replayed_total',
      'Answers given again to the same key without the full request pipeline',
      () => this.replayed,
    );
  }

  readonly visit: FrontDoor = (request, pass, take) => {
    const url = request.url;
    if (url === undefined || !this.replay.knows(url)) return pass();
    const key = extractApiKey(request.headers, undefined);
    if (key === undefined) return pass();
    this.auth.identify(key).then(
      (principal) => this.answer(principal, url, pass, take),
      // The full pipeline answers a refused key, or PostgreSQL out of reach, as it always does.
      () => pass(),
    );
  };

  private answer(principal: Principal, url: string, pass: () => void, take: Take): void {
    const recorded = this.replay.find(url, principal);
    if (recorded === undefined || !this.freshness.isFresh(recorded.json)) return pass();
    const admission = this.rateLimits?.admit(principal);
    if (admission?.allowed === false) return pass();
    const { request, response } = take();
    try {
      if (admission) applyRestRateLimit(admission, response);
      request.route = recorded.route;
      this.replayed += 1;
      response.status(200).setHeader('Content-Type', recorded.contentType);
      response.send(recorded.json);
    } catch (error) {
      // Past `take` the pipeline cannot have the request any more; the client sees the connection end.
      this.logger.error(
        `Replaying an answer failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      response.destroy();
    }
  }
}
