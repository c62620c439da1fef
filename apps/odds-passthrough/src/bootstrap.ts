import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';

/** Builds the whole odds-passthrough application; e2e tests use the same pipeline. */
export async function createOddsApp(): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule);
  app.set('query parser', 'simple');
  app.enableShutdownHooks();
  return app;
}
