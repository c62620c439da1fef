import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import cors from 'cors';
import { Metrics, observeRequests, PinoNestLogger, ROOT_LOGGER } from '@app/observability';
import { installConditionalGet } from './conditional-get';
import { type FrontDoor, installFrontDoor } from './front-door';
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

/** The installed pipeline: what may still be put in front of it. */
export interface HttpPipeline {
  /** Lets `door` answer plain GETs before Express's router, after the log, metrics and CORS. */
  addFrontDoor(door: FrontDoor): void;
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
export function installHttpPipeline(app: INestApplication, options: HttpEdgeOptions): HttpPipeline {
  const express = app as NestExpressApplication;
  const instance = express.getHttpAdapter().getInstance();
  installConditionalGet(instance);
  const observe = observeRequests(app.get(ROOT_LOGGER), app.get(Metrics));
  app.use(observe);
  installHttpEdge(app, options);
  express.set('query parser', 'simple');
  // What `app.enableCors` installs, kept at hand for a front door.
  const allowOrigins = cors({
    exposedHeaders: [
      'X-Request-Id',
      'ETag',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
    ],
  });
  app.use(allowOrigins);
  return {
    addFrontDoor: (door) =>
      installFrontDoor(app.getHttpServer() as Server, instance, [observe, allowOrigins], door),
  };
}
