/**
 * The JSON Schema keywords the AsyncAPI documents use, checked strictly: a
 * keyword this checker does not know throws, so a document can never pass
 * because a rule was skipped.
 */
type Schema = Record<string, unknown>;

const ANNOTATIONS = new Set(['description', 'title', 'format', 'examples']);
const TYPES: Record<string, (value: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
  null: (v) => v === null,
  array: (v) => Array.isArray(v),
  object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
};

export function schemaErrors(schema: Schema, value: unknown, path = '$'): string[] {
  const errors: string[] = [];
  for (const [keyword, rule] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword) || keyword.startsWith('x-parser-')) continue;
    switch (keyword) {
      case 'type': {
        const types = Array.isArray(rule) ? (rule as string[]) : [rule as string];
        if (!types.some((type) => TYPES[type](value))) errors.push(`${path}: expected ${types.join(' or ')}`);
        break;
      }
      case 'const':
        if (value !== rule) errors.push(`${path}: expected ${JSON.stringify(rule)}`);
        break;
      case 'enum':
        if (!(rule as unknown[]).includes(value)) errors.push(`${path}: not one of ${JSON.stringify(rule)}`);
        break;
      case 'minimum':
        if (typeof value === 'number' && value < (rule as number))
          errors.push(`${path}: below ${String(rule)}`);
        break;
      case 'maximum':
        if (typeof value === 'number' && value > (rule as number))
          errors.push(`${path}: above ${String(rule)}`);
        break;
      case 'maxItems':
        if (Array.isArray(value) && value.length > (rule as number)) errors.push(`${path}: too many items`);
        break;
      case 'required':
        if (TYPES.object(value)) {
          for (const field of rule as string[]) {
            if (!(field in (value as object))) errors.push(`${path}: missing ${field}`);
          }
        }
        break;
      case 'properties':
        if (TYPES.object(value)) {
          for (const [field, fieldSchema] of Object.entries(rule as Record<string, Schema>)) {
            const fieldValue = (value as Record<string, unknown>)[field];
            if (fieldValue !== undefined)
              errors.push(...schemaErrors(fieldSchema, fieldValue, `${path}.${field}`));
          }
        }
        break;
      case 'additionalProperties':
        if (TYPES.object(value)) {
          const known = Object.keys((schema.properties as object | undefined) ?? {});
          for (const [field, fieldValue] of Object.entries(value as Record<string, unknown>)) {
            if (known.includes(field)) continue;
            if (rule === false) errors.push(`${path}: unexpected ${field}`);
            else if (typeof rule === 'object')
              errors.push(...schemaErrors(rule as Schema, fieldValue, `${path}.${field}`));
          }
        }
        break;
      case 'items':
        if (Array.isArray(value))
          value.forEach((item, i) => errors.push(...schemaErrors(rule as Schema, item, `${path}[${i}]`)));
        break;
      case 'oneOf': {
        const matches = (rule as Schema[]).filter((option) => schemaErrors(option, value, path).length === 0);
        if (matches.length !== 1)
          errors.push(`${path}: matches ${matches.length} of the oneOf schemas, not 1`);
        break;
      }
      default:
        throw new Error(`${path}: schema keyword "${keyword}" is not checked by this test`);
    }
  }
  return errors;
}
