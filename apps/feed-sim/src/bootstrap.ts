import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { PinoNestLogger } from '@app/observability';
import { AppModule } from './app.module';

/** Everything main.ts does to the application besides listening; e2e tests apply it too. */
export function configureFeedSimApp(app: INestApplication): INestApplication {
  const express = app as NestExpressApplication;
  express.set('query parser', 'simple');
  // Bodies are fixed per version; Express's own weak ETags would only duplicate ours.
  express.set('etag', false);
  app.enableShutdownHooks();
  return app;
}

export async function createFeedSimApp(): Promise<INestApplication> {
  const app = await NestFactory.create(AppModule.forRoot(), { bufferLogs: true });
  app.useLogger(app.get(PinoNestLogger));
  return configureFeedSimApp(app);
}
