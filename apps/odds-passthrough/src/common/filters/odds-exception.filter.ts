import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { toErrorResponse } from '@app/auth';
import { oddsAuthError } from '../auth-messages';

/** Every odds-passthrough error leaves as `{"error": "..."}`. */
@Catch()
export class OddsExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(OddsExceptionFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const { status, message } = toErrorResponse(exception, oddsAuthError, this.logger);
    host.switchToHttp().getResponse<Response>().status(status).json({ error: message });
  }
}
