import type { INestApplication } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import type { FixturesEnv } from './config/fixtures.env';
import { setupOpenApi } from './openapi';

/** Everything main.ts does to the application besides listening; e2e tests apply it too. */
export function configureFixturesApp(app: INestApplication): INestApplication {
  const config = app.get<ConfigService<FixturesEnv, true>>(ConfigService);
  const basePath = config.get('BASE_PATH', { infer: true });
  app.setGlobalPrefix(basePath);
  (app as NestExpressApplication).set('query parser', 'simple');
  setupOpenApi(app, basePath);
  app.enableShutdownHooks();
  return app;
}

export async function createFixturesApp(): Promise<INestApplication> {
  return configureFixturesApp(await NestFactory.create(AppModule.forRoot()));
}
