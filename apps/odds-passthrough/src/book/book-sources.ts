import type { BookSource } from '../config/books';

/** Injection token for the configured books (`BookSource[]`). */
export const BOOK_SOURCES = Symbol('BOOK_SOURCES');

export type BookSources = readonly BookSource[];
