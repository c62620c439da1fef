import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ValidateBy, type ValidationArguments } from 'class-validator';
import { firstValue, type Reading, readDateTime, readId, readInteger, readOneOf } from './query-values';

/**
 * The name of the bound constraints. The exception factory reports them after
 * every other failure: all parameters are read before any bound is checked,
 * so `limit=0&offset=x` names offset, as the API always has.
 */
export const AT_LEAST = 'atLeast';

/** What the transform leaves for the validator when a parameter's text does not read. */
class Unreadable {
  constructor(readonly problem: string) {}
}

interface ParameterOptions<T> {
  readonly read: (text: string) => Reading<T>;
  readonly required: boolean;
  readonly docs: ApiPropertyOptions;
}

/**
 * A query or path parameter: documented, read from its first non-empty value
 * by the transform (so the handler receives the value itself), then checked by
 * one constraint whose message is the 422 detail.
 */
function parameter<T>({ read, required, docs }: ParameterOptions<T>): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ ...docs, required } as ApiPropertyOptions),
    Transform(({ value }: { value: unknown }) => {
      const text = firstValue(value);
      if (text === undefined) return undefined;
      const reading = read(text);
      return 'value' in reading ? reading.value : new Unreadable(reading.problem);
    }),
    ValidateBy({
      name: 'readable',
      validator: {
        validate: (value: unknown) => !(value instanceof Unreadable) && (value !== undefined || !required),
        defaultMessage: ({ property, value }: ValidationArguments) =>
          value instanceof Unreadable
            ? `invalid parameter ${property}: ${value.problem}`
            : `missing required parameter: ${property}`,
      },
    }),
  );
}

/** A required id; one no row can have reads as `null`, so the answer is "nothing" rather than an error. */
export function RequiredId(description?: string): PropertyDecorator {
  return parameter({ read: readId, required: true, docs: { type: Number, description } });
}

export function OptionalInteger(min: number, description: string): PropertyDecorator {
  return applyDecorators(
    parameter({ read: readInteger, required: false, docs: { type: Number, description } }),
    ValidateBy({
      name: AT_LEAST,
      constraints: [min],
      validator: {
        validate: (value: unknown) => typeof value !== 'number' || value >= min,
        defaultMessage: ({ property }: ValidationArguments) =>
          `invalid parameter ${property}: must be at least ${min}`,
      },
    }),
  );
}

export function OptionalDateTime(description: string): PropertyDecorator {
  return parameter({ read: readDateTime, required: false, docs: { type: String, description } });
}

export function OptionalOneOf<T extends string>(
  allowed: readonly T[],
  description: string,
): PropertyDecorator {
  return parameter({ read: readOneOf(allowed), required: false, docs: { enum: allowed, description } });
}

/** `limit` of a paged list; clamping and the default are the pager's. */
export function PageLimit(): PropertyDecorator {
  return OptionalInteger(1, 'Page size, at least 1; default 100; values above 200 are clamped to 200.');
}

export function PageOffset(): PropertyDecorator {
  return OptionalInteger(0, 'Records to skip, at least 0; default 0.');
}
