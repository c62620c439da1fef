import { BadRequestException, type ValidationPipe } from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import { API_KEY_QUERY_PARAMETER } from '@app/auth';
import { failureMessages, queryValidationPipe } from '@app/http-edge';

/** One 400 naming the first bad parameter; its message is the `error` clients match on. */
export function invalidParameterException(errors: readonly ValidationError[]): BadRequestException {
  const [first] = failureMessages(errors);
  return new BadRequestException(first ?? `invalid parameter: ${errors[0]?.property ?? 'unknown'}`);
}

export function oddsValidationPipe(): ValidationPipe {
  return queryValidationPipe(invalidParameterException, [API_KEY_QUERY_PARAMETER]);
}
