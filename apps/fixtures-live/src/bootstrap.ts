import { existsSync } from 'node:fs';
import type { INestApplication } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AnswerReplayDoor } from '@app/auth';
import { createHttpApp, installHttpPipeline } from '@app/http-edge';
import { connectNatsEvents } from '@app/messaging';
import { StreamAdapter } from '@app/streaming';
import { AppModule } from './app.module';
import type { FixturesEnv } from './config/fixtures.env';
import { fixturesRole } from './config/fixtures-role';
import { setupOpenApi } from './openapi';
import { errorFrameText } from './stream/live-frames';

/** Everything main.ts does to the application besides listening; e2e tests apply it too. */
export function configureFixturesApp(app: INestApplication): INestApplication {
  const config = app.get<ConfigService<FixturesEnv, true>>(ConfigService);
  const basePath = config.get('BASE_PATH', { infer: true });
  const pipeline = installHttpPipeline(app, { errorField: 'detail' });
  if (fixturesRole() !== 'ingest') pipeline.addFrontDoor(app.get(AnswerReplayDoor).visit);
  connectNatsEvents(app);
  app.setGlobalPrefix(basePath, { exclude: ['metrics'] });
  app.useWebSocketAdapter(new StreamAdapter(app, { pathPrefix: basePath, errorFrame: errorFrameText }));
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
  return configureFixturesApp(await createHttpApp(AppModule.forRoot()));
}
