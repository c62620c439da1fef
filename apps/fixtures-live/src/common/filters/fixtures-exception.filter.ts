import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { toErrorResponse } from '@app/auth';
import { methodNotAllowed } from '@app/http-edge';
import { fixturesAuthDetail } from '../auth-messages';

/** Every fixtures-live error leaves as `{"detail": "..."}`. */
@Catch()
export class FixturesExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(FixturesExceptionFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const answer = methodNotAllowed(exception, http.getRequest<Request | undefined>(), response);
    const { status, message } = toErrorResponse(answer, fixturesAuthDetail, this.logger);
    response.status(status).json({ detail: message });
  }
}
