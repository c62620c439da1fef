import { HttpException, HttpStatus } from '@nestjs/common';
import type { Admission } from './token-bucket';

export const RATE_LIMIT_EXCEEDED = 'rate limit exceeded';

/** What a REST answer needs: somewhere to put headers. */
export interface HeaderTarget {
  setHeader(name: string, value: string | number): unknown;
}

/** The 429 of a key over its rate; each app's exception filter renders it in its shape. */
export class RateLimitExceeded extends HttpException {
  constructor() {
    super(RATE_LIMIT_EXCEEDED, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/**
 * Writes the rate-limit headers of an admission on the response before the
 * handler runs, so they travel with whatever answer follows (200, 304, 404,
 * a validation 400), and refuses the request when the key is over its rate.
 */
export function applyRestRateLimit(admission: Admission, response: HeaderTarget): void {
  response.setHeader('RateLimit-Limit', admission.limit);
  response.setHeader('RateLimit-Remaining', admission.remaining);
  response.setHeader('RateLimit-Reset', admission.resetSeconds);
  if (admission.allowed) return;
  response.setHeader('Retry-After', admission.retryAfterSeconds);
  throw new RateLimitExceeded();
}
