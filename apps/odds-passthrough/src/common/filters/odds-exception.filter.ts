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
import { oddsAuthError } from '../auth-messages';

/** Every odds-passthrough error leaves as `{"error": "..."}`. */
@Catch()
export class OddsExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(OddsExceptionFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const [status, error] = this.render(exception);
    response.status(status).json({ error });
  }

  private render(exception: unknown): [number, string] {
    if (exception instanceof AuthError) return [exception.status, oddsAuthError(exception.failure)];
    if (exception instanceof HttpException) return [exception.getStatus(), redactKeys(httpError(exception))];
    this.logger.error(
      redactKeys(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception)),
    );
    return [HttpStatus.INTERNAL_SERVER_ERROR, 'internal server error'];
  }
}

function httpError(exception: HttpException): string {
  const body = exception.getResponse();
  if (typeof body === 'string') return body;
  const message = (body as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.map(String).join('; ');
  return exception.message;
}
