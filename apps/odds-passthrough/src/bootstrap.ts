import type { INestApplication } from '@nestjs/common';
import { createHttpApp, installHttpPipeline } from '@app/http-edge';
import { AppModule } from './app.module';
import { oddsSettingsFromEnv } from './config/odds-config';
import { setUpBookDocs } from './docs/openapi';

/** Everything main.ts does to the application besides listening; e2e tests apply it too. */
export function configureOddsApp(app: INestApplication): INestApplication {
  installHttpPipeline(app, { errorField: 'error' });
  const { role, books } = oddsSettingsFromEnv();
  if (role !== 'ingest') setUpBookDocs(app, books);
  return app;
}

export async function createOddsApp(): Promise<INestApplication> {
  return configureOddsApp(await createHttpApp(AppModule.forRoot()));
}
