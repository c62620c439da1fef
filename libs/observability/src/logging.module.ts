import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DynamicModule, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import pino, { type Logger as PinoInstance } from 'pino';
import { PinoNestLogger } from './pino-nest-logger';

/** Probes and scrapes are never logged: they would drown everything else. */
const QUIET_SUFFIXES = ['/health', '/health/ready', '/healthz', '/readyz', '/metrics'];

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** A caller's X-Request-Id when it is a sane token, else a new one; echoed on the response. */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

export function isQuietPath(url: string | undefined): boolean {
  const raw = (url ?? '/').split('?')[0];
  const path = raw.length > 1 && raw.endsWith('/') ? raw.slice(0, -1) : raw;
  return QUIET_SUFFIXES.some((suffix) => path.endsWith(suffix));
}

/** The process's one pino logger; the Nest logger and the request log both write through it. */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

/**
 * JSON logs through pino, also for Nest's own logger (`PinoNestLogger`). The
 * request middleware (`observeRequests`) is installed by the app's bootstrap
 * before its routes, so unmatched paths are logged too.
 */
@Module({})
export class LoggingModule {
  static forRoot(): DynamicModule {
    const rootProvider = {
      provide: ROOT_LOGGER,
      inject: [ConfigService],
      useFactory: (config: ConfigService<{ LOG_LEVEL: string }, true>): PinoInstance =>
        pino({ level: config.get('LOG_LEVEL', { infer: true }) }),
    };
    const nestLoggerProvider = {
      provide: PinoNestLogger,
      inject: [ROOT_LOGGER],
      useFactory: (root: PinoInstance) => new PinoNestLogger(root),
    };
    return {
      module: LoggingModule,
      global: true,
      providers: [rootProvider, nestLoggerProvider],
      exports: [ROOT_LOGGER, PinoNestLogger],
    };
  }
}
