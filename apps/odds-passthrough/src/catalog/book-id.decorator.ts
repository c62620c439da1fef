import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ValidateBy, type ValidationArguments } from 'class-validator';
import { firstValue, readBookId } from './book-id';

/** What the transform leaves for the validator when a given value is not an id. */
const NOT_AN_ID = Symbol('not an id');

/**
 * An id parameter of a book route: read by the transform (so the handler gets
 * the number), then one constraint whose message is the 400 `error`, the same
 * for a missing required id as for a malformed one.
 */
export function BookId({ required }: { readonly required: boolean }): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: Number, required }),
    Transform(({ value }: { value: unknown }) => {
      const first = firstValue(value);
      return first === undefined ? undefined : (readBookId(first) ?? NOT_AN_ID);
    }),
    ValidateBy({
      name: 'bookId',
      validator: {
        validate: (value: unknown) => value !== NOT_AN_ID && (value !== undefined || !required),
        defaultMessage: ({ property }: ValidationArguments) => `invalid parameter: ${property}`,
      },
    }),
  );
}
