import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { toErrorResponse } from '@app/auth';
import { methodNotAllowed } from '@app/http-edge';
import { oddsAuthError } from '../auth-messages';

/** Every odds-passthrough error leaves as `{"error": "..."}`. */
@Catch()
export class OddsExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(OddsExceptionFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const answer = methodNotAllowed(exception, http.getRequest<Request | undefined>(), response);
    const { status, message } = toErrorResponse(answer, oddsAuthError, this.logger);
    response.status(status).json({ error: message });
  }
}
