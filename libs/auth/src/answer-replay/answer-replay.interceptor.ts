import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { type Observable, tap } from 'rxjs';
import { PreparedJson } from '@app/http-edge';
import type { PrincipalHolder } from '../decorators/access.decorators';
import { AnswerFreshness } from './answer-freshness';
import { AnswerReplay } from './answer-replay';

/**
 * Records, on the routes it decorates, each fresh prepared answer the full
 * pipeline gave (guard, pipe, handler), for
 * `AnswerReplayDoor` to give again to the same key for the same target.
 * A request that names its key in the query is not recorded: the target
 * would hold the key.
 */
@Injectable()
export class AnswerReplayInterceptor implements NestInterceptor {
  constructor(
    private readonly replay: AnswerReplay,
    private readonly freshness: AnswerFreshness,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request & PrincipalHolder>();
    const response = http.getResponse<Response>();
    return next.handle().pipe(
      tap((result) => {
        if (!(result instanceof PreparedJson) || !this.freshness.isFresh(result)) return;
        const contentType = response.getHeader('Content-Type');
        if (
          request.method !== 'GET' ||
          request.principal === undefined ||
          request.query.key !== undefined ||
          response.statusCode !== 200 ||
          typeof contentType !== 'string'
        ) {
          return;
        }
        this.replay.remember(request.originalUrl, request.principal, {
          json: result,
          contentType,
          route: request.route,
        });
      }),
    );
  }
}
