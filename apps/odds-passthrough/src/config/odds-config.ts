import { type Role, validateEnv } from '@app/config';
import { type BookSource, resolveBooks } from './books';
import { OddsEnv } from './odds.env';

export interface OddsModuleSettings {
  readonly role: Role;
  readonly books: readonly BookSource[];
}

/**
 * What decides the module graph, read when the application module is built:
 * controllers are registered per book and per role, before Nest's config
 * service exists. The same validation as the config module's.
 */
export function oddsSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): OddsModuleSettings {
  const validated = validateEnv(OddsEnv, env);
  return { role: validated.ROLE, books: resolveBooks(validated.BOOKS, validated.BOOK_UPSTREAM_URL) };
}
