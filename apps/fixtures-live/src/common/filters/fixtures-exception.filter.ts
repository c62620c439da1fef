import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
} from '@nestjs/common';
import type { Response } from 'express';
import { AuthError, redactKeys } from '@app/auth';
import { fixturesAuthDetail } from '../auth-messages';

/** Every fixtures-live error leaves as `{"detail": "..."}`. */
@Catch()
export class FixturesExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(FixturesExceptionFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const [status, detail] = this.render(exception);
    response.status(status).json({ detail });
  }

  private render(exception: unknown): [number, string] {
    if (exception instanceof AuthError) return [exception.status, fixturesAuthDetail(exception.failure)];
    if (exception instanceof HttpException) return [exception.getStatus(), redactKeys(httpDetail(exception))];
    this.logger.error(
      redactKeys(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception)),
    );
    return [HttpStatus.INTERNAL_SERVER_ERROR, 'internal server error'];
  }
}

function httpDetail(exception: HttpException): string {
  const body = exception.getResponse();
  if (typeof body === 'string') return body;
  const message = (body as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.map(String).join('; ');
  return exception.message;
}
