import { Injectable, type NestMiddleware, type OnModuleInit, Optional } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { applyRestRateLimit, AuthService, extractApiKey, type Principal, RateLimits } from '@app/auth';
import { Metrics } from '@app/observability';
import { AnswerReplay } from './answer-replay';
import { CatalogReadCache } from './catalog-read-cache';

/**
 * Gives a key the catalog page the full pipeline last gave it for the same
 * request target, while the catalog cache still holds that page (ADR 019),
 * without Express's routing and Nest's guard, pipe and handler: the page
 * costs what sending it costs. What a request must still get is done here as
 * the pipeline does it: the key is looked up (expiry and revocation
 * included), its rate is charged with the same headers or refused with the
 * same 429, and the page goes through the same `res.send` (content type,
 * entity tag, 304). Anything else (no recording, another principal object
 * because the key changed, a refused key, a stale page) goes on to the full
 * pipeline, which answers exactly as it would have.
 */
@Injectable()
export class AnswerReplayMiddleware implements NestMiddleware, OnModuleInit {
  /** Requests answered by a replay since start, read by the metrics endpoint. */
  private replayed = 0;

  constructor(
    private readonly replay: AnswerReplay,
    private readonly cache: CatalogReadCache,
    private readonly auth: AuthService,
    @Optional() private readonly rateLimits?: RateLimits,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  onModuleInit(): void {
    this.metrics?.observeCounter(
      'http_answers_replayed_total',
      'Catalog pages given again to the same key without the full request pipeline',
      () => this.replayed,
    );
  }

  readonly use = (request: Request, response: Response, next: NextFunction): void => {
    if (request.method !== 'GET' || !this.replay.knows(request.originalUrl)) return next();
    const key = extractApiKey(request.headers, undefined);
    if (key === undefined) return next();
    this.auth.identify(key).then(
      (principal) => {
        try {
          this.answer(principal, request, response, next);
        } catch (error) {
          next(error);
        }
      },
      // The full pipeline answers a refused key, or PostgreSQL out of reach, as it always does.
      () => next(),
    );
  };

  private answer(principal: Principal, request: Request, response: Response, next: NextFunction): void {
    const recorded = this.replay.find(request.originalUrl, principal);
    if (recorded === undefined || !this.cache.isFresh(recorded.json)) return next();
    // Throws the 429 over the key's rate, which `use` hands to the app's exception filter.
    if (this.rateLimits) applyRestRateLimit(this.rateLimits.admit(principal), response);
    (request as Request & { route: unknown }).route = recorded.route;
    this.replayed += 1;
    response.status(200).setHeader('Content-Type', recorded.contentType);
    response.send(recorded.json);
  }
}
