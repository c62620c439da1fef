import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { oddsSettingsFromEnv } from './config/odds-config';
import { setUpBookDocs } from './docs/openapi';

/** Everything main.ts does to the application besides listening; e2e tests apply it too. */
export function configureOddsApp(app: INestApplication): INestApplication {
  (app as NestExpressApplication).set('query parser', 'simple');
  const { role, books } = oddsSettingsFromEnv();
  if (role !== 'ingest') setUpBookDocs(app, books);
  app.enableShutdownHooks();
  return app;
}

export async function createOddsApp(): Promise<INestApplication> {
  return configureOddsApp(await NestFactory.create(AppModule.forRoot()));
}
