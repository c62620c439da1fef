export * from './livescores.parsers';
export * from './livescores.types';
export type { ParseResult } from './parse-result';
