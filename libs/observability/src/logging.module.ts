import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DynamicModule, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { LoggerModule } from 'nestjs-pino';
import { redactKeys } from '@app/auth';

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

/**
 * JSON logs through pino. Every line written while serving a request carries
 * its `reqId`; key material never gets written: the key headers are censored
 * and the URL loses its `key` query value before it is logged.
 */
@Module({})
export class LoggingModule {
  static forRoot(): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRootAsync({
          inject: [ConfigService],
          useFactory: (config: ConfigService<{ LOG_LEVEL: string }, true>) => ({
            pinoHttp: {
              level: config.get('LOG_LEVEL', { infer: true }),
              genReqId: requestId,
              quietReqLogger: true,
              autoLogging: { ignore: (req: IncomingMessage) => isQuietPath(req.url) },
              redact: {
                paths: [
                  'req.headers["x-api-key"]',
                  'req.headers.authorization',
                  'req.headers.cookie',
                  'req.query.key',
                ],
                censor: '[redacted]',
              },
              serializers: {
                req: (req: {
                  id: unknown;
                  method: string;
                  url: string;
                  headers: Record<string, unknown>;
                }) => ({
                  id: req.id,
                  method: req.method,
                  url: redactKeys(req.url),
                  headers: req.headers,
                }),
              },
            },
          }),
        }),
      ],
    };
  }
}
