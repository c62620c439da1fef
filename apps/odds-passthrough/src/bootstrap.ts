import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { installHttpEdge } from '@app/http-edge';
import { httpMetricsMiddleware, Metrics, ROOT_LOGGER, requestLogger } from '@app/observability';
import { AppModule } from './app.module';
import { oddsSettingsFromEnv } from './config/odds-config';
import { setUpBookDocs } from './docs/openapi';

/** Everything main.ts does to the application besides listening; e2e tests apply it too. */
export function configureOddsApp(app: INestApplication): INestApplication {
  app.use(requestLogger(app.get(ROOT_LOGGER)));
  app.use(httpMetricsMiddleware(app.get(Metrics)));
  installHttpEdge(app, { errorField: 'error' });
  (app as NestExpressApplication).set('query parser', 'simple');
  // Browsers (the live board, trading dashboards) call the API from other origins with a key header.
  app.enableCors({ exposedHeaders: ['X-Request-Id'] });
  const { role, books } = oddsSettingsFromEnv();
  if (role !== 'ingest') setUpBookDocs(app, books);
  return app;
}

export async function createOddsApp(): Promise<INestApplication> {
  // Request bodies are read by the HTTP edge (installHttpEdge), not by Nest's parsers.
  const app = await NestFactory.create(AppModule.forRoot(), { bufferLogs: true, bodyParser: false });
  app.useLogger(app.get(Logger));
  return configureOddsApp(app);
}
