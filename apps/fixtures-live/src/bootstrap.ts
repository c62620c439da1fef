import type { INestApplication } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import type { FixturesEnv } from './config/fixtures.env';

/** Builds the whole fixtures-live application; e2e tests use the same pipeline. */
export async function createFixturesApp(): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule, { bufferLogs: false });
  const config = app.get<ConfigService<FixturesEnv, true>>(ConfigService);
  app.setGlobalPrefix(config.get('BASE_PATH', { infer: true }));
  app.set('query parser', 'simple');
  app.enableShutdownHooks();
  return app;
}
