export const AUTH_OPTIONS = Symbol('AUTH_OPTIONS');

export interface AuthOptions {
  /** Longest a key decision may be served from memory (AUTH_CACHE_TTL_MS). */
  readonly cacheTtlMs: number;
}
