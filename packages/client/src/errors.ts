export type ServiceName = 'fixtures-live' | 'odds-passthrough';

/**
 * A non-2xx answer of a service: its status and the message the service
 * gave (`detail` from fixtures-live, `error` from odds-passthrough).
 */
export class ApiError extends Error {
  override readonly name: string = 'ApiError';

  constructor(
    readonly service: ServiceName,
    readonly status: number,
    /** The service's own message, or the status text when the body had none. */
    readonly serviceMessage: string,
    readonly url: string,
    /** The parsed body, when it was JSON. */
    readonly body?: unknown,
  ) {
    super(`${service} answered ${status}: ${serviceMessage}`);
  }
}

/** 401 or 403: the key is missing, unknown, inactive or lacks a scope or grant. Retrying will not help. */
export class AuthError extends ApiError {
  override readonly name: string = 'AuthError';
}

/** 404. */
export class NotFoundError extends ApiError {
  override readonly name: string = 'NotFoundError';
}

/** 400 or 422: a parameter the service refused; the message names it. */
export class InvalidRequestError extends ApiError {
  override readonly name: string = 'InvalidRequestError';
}

/** 429 still answered after the client's bounded retries. */
export class RateLimitError extends ApiError {
  override readonly name: string = 'RateLimitError';

  constructor(
    service: ServiceName,
    status: number,
    serviceMessage: string,
    url: string,
    body: unknown,
    /** What the last `Retry-After` asked for, in ms. */
    readonly retryAfterMs: number | undefined,
  ) {
    super(service, status, serviceMessage, url, body);
  }
}

/** A stream handshake the server refused (no upgrade), or a socket that could not be opened. */
export class StreamError extends Error {
  override readonly name: string = 'StreamError';

  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The typed error for a status. */
export function apiError(
  service: ServiceName,
  status: number,
  serviceMessage: string,
  url: string,
  body: unknown,
  retryAfterMs?: number,
): ApiError {
  if (status === 401 || status === 403) return new AuthError(service, status, serviceMessage, url, body);
  if (status === 404) return new NotFoundError(service, status, serviceMessage, url, body);
  if (status === 400 || status === 422)
    return new InvalidRequestError(service, status, serviceMessage, url, body);
  if (status === 429) return new RateLimitError(service, status, serviceMessage, url, body, retryAfterMs);
  return new ApiError(service, status, serviceMessage, url, body);
}
