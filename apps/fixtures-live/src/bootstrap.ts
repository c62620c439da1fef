import { existsSync } from 'node:fs';
import type { INestApplication } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { installHttpEdge } from '@app/http-edge';
import { httpMetricsMiddleware, Metrics, ROOT_LOGGER, requestLogger } from '@app/observability';
import { AppModule } from './app.module';
import type { FixturesEnv } from './config/fixtures.env';
import { setupOpenApi } from './openapi';

/** Everything main.ts does to the application besides listening; e2e tests apply it too. */
export function configureFixturesApp(app: INestApplication): INestApplication {
  const config = app.get<ConfigService<FixturesEnv, true>>(ConfigService);
  const basePath = config.get('BASE_PATH', { infer: true });
  app.use(requestLogger(app.get(ROOT_LOGGER)));
  app.use(httpMetricsMiddleware(app.get(Metrics)));
  installHttpEdge(app, { errorField: 'detail' });
  app.setGlobalPrefix(basePath, { exclude: ['metrics'] });
  (app as NestExpressApplication).set('query parser', 'simple');
  // Browsers (the live board, partners' dashboards) call the API from other origins with a key header.
  app.enableCors({ exposedHeaders: ['X-Request-Id'] });
  serveBoard(app as NestExpressApplication, config.get('BOARD_DIR', { infer: true }));
  setupOpenApi(app, basePath);
  return app;
}

/** The demo's live board: static files only, no key needed to load the page itself. */
function serveBoard(app: NestExpressApplication, folder: string | undefined): void {
  if (folder === undefined) return;
  if (!existsSync(folder)) throw new Error(`BOARD_DIR ${folder} does not exist`);
  app.useStaticAssets(folder, { prefix: '/board' });
}

export async function createFixturesApp(): Promise<INestApplication> {
  // Request bodies are read by the HTTP edge (installHttpEdge), not by Nest's parsers.
  const app = await NestFactory.create(AppModule.forRoot(), { bufferLogs: true, bodyParser: false });
  app.useLogger(app.get(Logger));
  return configureFixturesApp(app);
}
