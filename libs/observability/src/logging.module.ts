import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DynamicModule, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { NextFunction, Request, Response } from 'express';
import pino, { type Logger as PinoInstance } from 'pino';
import { PinoNestLogger } from './pino-nest-logger';
import { redactKeys } from './redact';

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

type LoggedRequest = Request & { id?: string };

/**
 * One line per request, written when the response is finished: request id,
 * method, URL without key values, status and duration. Headers are never
 * logged, so no key header can leak.
 *
 * This replaces pino-http, whose per-request machinery cost a third of the
 * REST throughput in the REST workload of `npm run bench`.
 */
export function requestLogger(root: PinoInstance) {
  return (req: LoggedRequest, res: Response, next: NextFunction): void => {
    const id = requestId(req, res);
    req.id = id;
    if (isQuietPath(req.url)) return next();
    const started = performance.now();
    res.once('finish', () => {
      const failed = res.statusCode >= 500;
      // Built only when written: at LOG_LEVEL=warn most requests write nothing.
      if (!root.isLevelEnabled(failed ? 'error' : 'info')) return;
      const entry = {
        reqId: id,
        req: { id, method: req.method, url: redactKeys(req.originalUrl ?? req.url) },
        res: { statusCode: res.statusCode },
        responseTime: Math.round(performance.now() - started),
      };
      if (failed) root.error(entry, 'request failed');
      else root.info(entry, 'request completed');
    });
    next();
  };
}

/**
 * JSON logs through pino, also for Nest's own logger (`PinoNestLogger`). The
 * request middleware (`requestLogger`) is installed by the app's bootstrap
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
