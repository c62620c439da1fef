import { type ArgumentsHost, Catch, type ExceptionFilter, Logger, type Type } from '@nestjs/common';
import type { Request, Response } from 'express';
import { methodNotAllowed } from '@app/http-edge';
import type { AuthFailure } from './auth-failure';
import { toErrorResponse } from './error-response';

/** What sets the two services' error answers apart: the body's one field and the wording of auth outcomes. */
export interface ErrorShape {
  /** Logger context, the app's filter name. */
  readonly name: string;
  readonly field: 'detail' | 'error';
  readonly wordAuthFailure: (failure: AuthFailure) => string;
}

/**
 * The catch-all exception filter of an app (APP_FILTER): every error leaves
 * as `{"<field>": "..."}` with its status, a request that no route took for
 * its method as 405 with `Allow`, PostgreSQL out of reach as 503, and only a
 * real bug as a logged 500.
 */
export function serviceErrorFilter(shape: ErrorShape): Type<ExceptionFilter> {
  @Catch()
  class ServiceErrorFilter implements ExceptionFilter {
    private readonly logger = new Logger(shape.name);

    catch(exception: unknown, host: ArgumentsHost): void {
      const http = host.switchToHttp();
      const response = http.getResponse<Response>();
      const request = http.getRequest<(Request & { id?: string }) | undefined>();
      const answer = methodNotAllowed(exception, request, response);
      const { status, message } = toErrorResponse(answer, shape.wordAuthFailure, this.logger, request?.id);
      response.status(status).json({ [shape.field]: message });
    }
  }
  Object.defineProperty(ServiceErrorFilter, 'name', { value: shape.name });
  return ServiceErrorFilter;
}
