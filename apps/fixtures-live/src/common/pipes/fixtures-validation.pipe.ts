import { UnprocessableEntityException, type ValidationPipe } from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import { API_KEY_QUERY_PARAMETER } from '@app/auth';
import { failureMessages, queryValidationPipe } from '@app/http-edge';
import { AT_LEAST } from '../query/query-parameter.decorators';

/** One 422 naming the first bad parameter; its message is the `detail` clients match on. */
export function invalidQueryException(errors: readonly ValidationError[]): UnprocessableEntityException {
  const [first] = failureMessages(errors, [AT_LEAST]);
  return new UnprocessableEntityException(first ?? `invalid parameter ${errors[0]?.property ?? 'unknown'}`);
}

export function fixturesValidationPipe(): ValidationPipe {
  return queryValidationPipe(invalidQueryException, [API_KEY_QUERY_PARAMETER]);
}
