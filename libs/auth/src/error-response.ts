import { HttpException, HttpStatus, type LoggerService } from '@nestjs/common';
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from '@app/database';
import { redactKeys } from '@app/observability';
import { type AuthFailure, AuthError } from './auth-failure';

export interface ErrorResponse {
  readonly status: number;
  readonly message: string;
}

/**
 * What both apps' exception filters send, before each puts the message in
 * its own field: auth outcomes in the app's wording, HTTP errors with any key
 * redacted, PostgreSQL out of reach as 503 (the client may retry; nothing it
 * sent was wrong), anything else as a logged 500. The log line carries the
 * request's id when there is one, as the request's own line does.
 */
export function toErrorResponse(
  exception: unknown,
  wordAuthFailure: (failure: AuthFailure) => string,
  logger: LoggerService,
  requestId?: string,
): ErrorResponse {
  const line = (msg: string) => (requestId === undefined ? msg : { reqId: requestId, msg });
  if (exception instanceof AuthError) {
    return { status: exception.status, message: wordAuthFailure(exception.failure) };
  }
  if (exception instanceof HttpException) {
    return { status: exception.getStatus(), message: redactKeys(httpMessage(exception)) };
  }
  if (isDatabaseUnavailable(exception)) {
    logger.warn(
      line(redactKeys(`Answered 503: ${exception instanceof Error ? exception.message : String(exception)}`)),
    );
    return { status: HttpStatus.SERVICE_UNAVAILABLE, message: DATABASE_UNAVAILABLE };
  }
  logger.error(
    line(redactKeys(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception))),
  );
  return { status: HttpStatus.INTERNAL_SERVER_ERROR, message: 'internal server error' };
}

function httpMessage(exception: HttpException): string {
  const body = exception.getResponse();
  if (typeof body === 'string') return body;
  const message = (body as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message)) return message.map(String).join('; ');
  return exception.message;
}
