import { type Role, validateEnv } from '@app/config';
import { FixturesEnv } from './fixtures.env';

/**
 * The process's role, read when the application module is built (before
 * Nest's config service exists), with the config module's validation: an
 * api process has no ingest, an ingest process serves no data route.
 */
export function fixturesRole(env: NodeJS.ProcessEnv = process.env): Role {
  return validateEnv(FixturesEnv, env).ROLE;
}
