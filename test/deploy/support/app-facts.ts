import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { FixturesEnv } from '../../../apps/fixtures-live/src/config/fixtures.env';
import { HealthController as FixturesHealthController } from '../../../apps/fixtures-live/src/health/health.controller';
import { resolveBooks } from '../../../apps/odds-passthrough/src/config/books';
import { OddsEnv } from '../../../apps/odds-passthrough/src/config/odds.env';
import { HealthController as OddsHealthController } from '../../../apps/odds-passthrough/src/health/health.controller';
import { MetricsController } from '../../../libs/observability/src/metrics.controller';

/**
 * What the deployment files must agree with, read from the applications
 * themselves (env defaults, controller routes) and from package.json and
 * nest-cli.json, never restated by hand.
 */
export const ROOT = join(__dirname, '..', '..', '..');

export function readRepoFile(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

type Controller = abstract new (...args: never[]) => object;

/** The GET routes a controller serves under a global prefix, from Nest's own metadata. */
export function getRoutes(controller: Controller, prefix: string): string[] {
  const base = Reflect.getMetadata(PATH_METADATA, controller) as string | undefined;
  const prototype = controller.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(prototype).flatMap((name) => {
    const handler = prototype[name];
    if (name === 'constructor' || typeof handler !== 'function') return [];
    const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
    const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
    if (path === undefined || method !== RequestMethod.GET) return [];
    const joined = `/${[prefix, base ?? '', path].join('/')}`.replace(/\/+/g, '/');
    return [joined.length > 1 ? joined.replace(/\/$/, '') : joined];
  });
}

export interface ServiceFacts {
  name: 'fixtures-live' | 'odds-passthrough';
  port: number;
  /** Liveness and readiness routes, as the probes call them. */
  liveness: string;
  readiness: string;
  /** GET routes the health controller really serves at the default configuration. */
  healthRoutes: string[];
}

const fixturesEnv = new FixturesEnv();
const oddsEnv = new OddsEnv();

export const SERVICES: readonly ServiceFacts[] = [
  {
    name: 'fixtures-live',
    port: fixturesEnv.PORT,
    liveness: `${fixturesEnv.BASE_PATH}/health`,
    readiness: `${fixturesEnv.BASE_PATH}/health/ready`,
    healthRoutes: getRoutes(FixturesHealthController, fixturesEnv.BASE_PATH),
  },
  {
    name: 'odds-passthrough',
    port: oddsEnv.PORT,
    liveness: '/healthz',
    readiness: '/readyz',
    healthRoutes: getRoutes(OddsHealthController, ''),
  },
];

export const FIXTURES_BASE_PATH = fixturesEnv.BASE_PATH;

/** The sportsbook prefix odds-passthrough serves when BOOKS is not set. */
export const DEFAULT_BOOK_PREFIX = resolveBooks(oddsEnv.BOOKS, oddsEnv.BOOK_UPSTREAM_URL)[0].prefix;

/** The Prometheus route, served by both services outside any prefix. */
export const METRICS_ROUTES = getRoutes(MetricsController, '');

export function service(name: string): ServiceFacts {
  const found = SERVICES.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no service ${name}`);
  return found;
}

/** Every variable a service process reads (the env classes' fields), plus Node's own. */
export const KNOWN_ENV = new Set([
  ...Object.keys(fixturesEnv),
  ...Object.keys(oddsEnv),
  'SIM_PORT',
  'NODE_OPTIONS',
  'NODE_ENV',
]);

/** The programs the image's entrypoint starts. */
export const PROGRAMS = ['fixtures-live', 'odds-passthrough', 'feed-sim', 'migrate', 'keys'] as const;

interface NestProject {
  type: 'application' | 'library';
  root: string;
  entryFile: string;
}

/** Where `nest build <project>` writes each application's bundle (webpack: one file per entry). */
export function buildOutputs(): Record<string, string> {
  const cli = JSON.parse(readRepoFile('nest-cli.json')) as { projects: Record<string, NestProject> };
  return Object.fromEntries(
    Object.entries(cli.projects)
      .filter(([, project]) => project.type === 'application')
      .map(([name, project]) => [name, `dist/${project.root}/${project.entryFile}.js`]),
  );
}

export function packageJson(): { version: string; scripts: Record<string, string> } {
  return JSON.parse(readRepoFile('package.json')) as { version: string; scripts: Record<string, string> };
}
