import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { toErrorResponse } from '@app/auth';
import { fixturesAuthDetail } from '../auth-messages';

/** Every fixtures-live error leaves as `{"detail": "..."}`. */
@Catch()
export class FixturesExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(FixturesExceptionFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const { status, message } = toErrorResponse(exception, fixturesAuthDetail, this.logger);
    host.switchToHttp().getResponse<Response>().status(status).json({ detail: message });
  }
}
