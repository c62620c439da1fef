import { BadRequestException } from '@nestjs/common';

/**
 * An id parameter of a book route: absent, or a non-negative integer. Repeated
 * parameters count by their first value; anything else is a 400 naming it.
 */
export function idParam(query: Record<string, unknown>, name: string, required: true): number;
export function idParam(query: Record<string, unknown>, name: string, required?: false): number | undefined;
export function idParam(query: Record<string, unknown>, name: string, required = false): number | undefined {
  const raw = query[name];
  const value: unknown = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined) {
    if (required) throw invalidParameter(name);
    return undefined;
  }
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) throw invalidParameter(name);
  return Number(value);
}

export function invalidParameter(name: string): BadRequestException {
  return new BadRequestException(`invalid parameter: ${name}`);
}
