import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { WsException } from '@nestjs/websockets';
import { ValidateBy, ValidateIf, type ValidationArguments } from 'class-validator';

/**
 * An integer field of a client frame (an id): strings, fractions and unsafe
 * numbers are refused. The message says whether the field is missing or
 * mistyped, as the stream specifications word it. Optional fields may be left
 * out, but not sent as null. With bounds, a value outside them is refused
 * with the range in the message.
 */
export function FrameInteger(
  options: { optional?: boolean; min?: number; max?: number } = {},
): PropertyDecorator {
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = options;
  const bounded = options.min !== undefined || options.max !== undefined;
  return (target, property) => {
    if (options.optional) {
      ValidateIf((frame: Record<string | symbol, unknown>) => frame[property] !== undefined)(
        target,
        property,
      );
    }
    ValidateBy({
      name: 'frameInteger',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max,
        defaultMessage: ({ value, property: name }: ValidationArguments) => {
          if (value === undefined) return `missing field: ${name}`;
          return bounded
            ? `invalid ${name}: expected an integer from ${min} to ${max}`
            : `invalid ${name}: expected an integer`;
        },
      },
    })(target, property);
  };
}

/** The first problem of the first field in declaration order, so one bad frame always gets the same answer. */
export function firstProblem(errors: readonly ValidationError[]): string {
  for (const error of errors) {
    const message = Object.values(error.constraints ?? {})[0] ?? firstProblem(error.children ?? []);
    if (message) return message;
  }
  return 'invalid frame';
}

/**
 * The WebSocket counterpart of an app's ValidationPipe: validates a handler's
 * `@MessageBody()` DTO and raises the first problem as a WsException, which
 * `StreamExceptionFilter` sends back as the app's error frame.
 */
export function frameValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    exceptionFactory: (errors) => new WsException(firstProblem(errors)),
  });
}
