import type { INestApplication } from '@nestjs/common';
import { createHttpApp, installHttpPipeline } from '@app/http-edge';
import { connectNatsEvents } from '@app/messaging';
import { StreamAdapter } from '@app/streaming';
import { AppModule } from './app.module';
import { oddsSettingsFromEnv } from './config/odds-config';
import { setUpBookDocs } from './docs/openapi';
import { errorFrameText } from './stream/book-frames';

/** Everything main.ts does to the application besides listening; e2e tests apply it too. */
export function configureOddsApp(app: INestApplication): INestApplication {
  installHttpPipeline(app, { errorField: 'error' });
  connectNatsEvents(app);
  app.useWebSocketAdapter(new StreamAdapter(app, { errorFrame: errorFrameText }));
  const { role, books } = oddsSettingsFromEnv();
  if (role !== 'ingest') setUpBookDocs(app, books);
  return app;
}

export async function createOddsApp(): Promise<INestApplication> {
  return configureOddsApp(await createHttpApp(AppModule.forRoot()));
}
