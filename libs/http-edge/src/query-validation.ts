import { type HttpException, ValidationPipe } from '@nestjs/common';
import type { ValidationError } from 'class-validator';

/**
 * The messages of the constraints that failed, in the order a client is told
 * about them: properties as their class declares them (class-validator
 * reports them so), each property's constraints in the order they ran, and
 * the constraints named in `last` after every other one.
 */
export function failureMessages(errors: readonly ValidationError[], last: readonly string[] = []): string[] {
  const failures = errors.flatMap((error) => Object.entries(error.constraints ?? {}));
  const isLast = ([name]: [string, string]) => last.includes(name);
  return [...failures.filter((failure) => !isLast(failure)), ...failures.filter(isLast)].map(
    ([, message]) => message,
  );
}

/**
 * The one pipe of a service (APP_PIPE): query and path DTOs are built from
 * the raw values (their transforms parse them), validated, and handed to the
 * handler parsed. Parameters a DTO does not declare are dropped, never
 * refused; the service words the refusal through `exceptionFactory`.
 */
export function queryValidationPipe(
  exceptionFactory: (errors: ValidationError[]) => HttpException,
): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidUnknownValues: false,
    validationError: { target: false, value: false },
    exceptionFactory,
  });
}
