import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Metrics, observeRequests, PinoNestLogger, ROOT_LOGGER } from '@app/observability';
import { installConditionalGet } from './conditional-get';
import { type HttpEdgeOptions, installHttpEdge } from './http-edge';

/**
 * Creates a service's Nest application on Express with its JSON logger.
 * Request bodies are read by the HTTP edge, not by Nest's parsers.
 */
export async function createHttpApp(
  module: Parameters<typeof NestFactory.create>[0],
): Promise<INestApplication> {
  const app = await NestFactory.create(module, { bufferLogs: true, bodyParser: false });
  app.useLogger(app.get(PinoNestLogger));
  return app;
}

/**
 * The HTTP pipeline both services share, in this order: the request log and
 * metrics (before anything can answer), the edge (bodies, parser
 * failures, stray upgrades), plain query parsing (a repeated parameter stays
 * a list, nothing nests), and CORS, since browsers (the live board, partners'
 * and desks' dashboards) call the APIs from other origins with a key header.
 * Conditional GET is not a step: it is where every answer's bytes are sent
 * (a strong `ETag` on JSON answers, 304 when the client holds it; Express's
 * own weak tags are off, so there is one mechanism).
 */
export function installHttpPipeline(app: INestApplication, options: HttpEdgeOptions): void {
  const express = app as NestExpressApplication;
  installConditionalGet(express.getHttpAdapter().getInstance());
  app.use(observeRequests(app.get(ROOT_LOGGER), app.get(Metrics)));
  installHttpEdge(app, options);
  express.set('query parser', 'simple');
  app.enableCors({
    exposedHeaders: [
      'X-Request-Id',
      'ETag',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
    ],
  });
}
