import {
  type ArgumentMetadata,
  type HttpException,
  ValidationPipe,
  type ValidationPipeOptions,
} from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import { copyOfValidated, rawValueKey, ValidatedValues } from './validated-values';

/** Distinct valid query strings remembered per service; clients poll a few pages again and again. */
const REMEMBERED_QUERIES = 1000;

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
 * Nest's ValidationPipe, remembering what a query or path value it validated
 * became: a poll repeating a query string gets a copy of the same DTO without
 * class-transformer and class-validator running again (they cost more than the
 * rest of a cached answer). Sound because the DTOs' transforms and
 * constraints are functions of the raw text alone (`query-values.ts`,
 * `book-id.ts`): nothing reads the clock, the key or the database.
 */
class RememberingValidationPipe extends ValidationPipe {
  private readonly validated = new ValidatedValues(REMEMBERED_QUERIES);

  constructor(
    options: ValidationPipeOptions,
    /** Query parameters no DTO declares, left out of what is remembered (see `rawValueKey`). */
    private readonly ignoredParameters: ReadonlySet<string>,
  ) {
    super(options);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const { metatype } = metadata;
    const key =
      (metadata.type === 'query' || metadata.type === 'param') && metatype && this.toValidate(metadata)
        ? rawValueKey(value, this.ignoredParameters)
        : undefined;
    if (key === undefined) return super.transform(value, metadata) as Promise<unknown>;
    const known = this.validated.get(metatype, key);
    if (known) return copyOfValidated(known);
    const validated = (await super.transform(value, metadata)) as unknown;
    if (typeof validated === 'object' && validated !== null) {
      this.validated.set(metatype, key, copyOfValidated(validated));
    }
    return validated;
  }
}

/**
 * The one pipe of a service (APP_PIPE): query and path DTOs are built from
 * the raw values (their transforms parse them), validated, and handed to the
 * handler parsed. Parameters a DTO does not declare are dropped, never
 * refused; the service words the refusal through `exceptionFactory`.
 * Valid values already seen are answered from memory (RememberingValidationPipe).
 */
export function queryValidationPipe(
  exceptionFactory: (errors: ValidationError[]) => HttpException,
  /** Query parameters no DTO declares and that must not be remembered, e.g. the API key. */
  ignoredParameters: readonly string[] = [],
): ValidationPipe {
  return new RememberingValidationPipe(
    {
      transform: true,
      whitelist: true,
      forbidUnknownValues: false,
      validationError: { target: false, value: false },
      exceptionFactory,
    },
    new Set(ignoredParameters),
  );
}
