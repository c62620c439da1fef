import type { INestApplication } from '@nestjs/common';
import { AnswerReplayDoor } from '@app/auth';
import { createHttpApp, installHttpPipeline } from '@app/http-edge';
import { connectNatsEvents, NatsLink } from '@app/messaging';
import { StreamAdapter } from '@app/streaming';
import { AppModule } from './app.module';
import { oddsSettingsFromEnv } from './config/odds-config';
import { setUpBookDocs } from './docs/openapi';
import { errorFrameText } from './stream/book-frames';

/** Everything main.ts does to the application besides listening; e2e tests apply it too. */
export function configureOddsApp(app: INestApplication): INestApplication {
  const pipeline = installHttpPipeline(app, { errorField: 'error' });
  const { role, books } = oddsSettingsFromEnv();
  if (role !== 'ingest') pipeline.addFrontDoor(app.get(AnswerReplayDoor).visit);
  connectNatsEvents(app);
  app.useWebSocketAdapter(new StreamAdapter(app, { errorFrame: errorFrameText }));
  if (role !== 'ingest') setUpBookDocs(app, books);
  return app;
}

export async function createOddsApp(): Promise<INestApplication> {
  return configureOddsApp(await createHttpApp(AppModule.forRoot()));
}

/** How long a start waits for its NATS handlers to subscribe before loading the book without them. */
const SUBSCRIBE_WAIT_MS = 2_000;

/**
 * Starts the NATS handlers, then initialises the modules. The api replica's
 * load at start then covers everything published before it, and what is
 * heard during it waits for it: the book is read once instead of twice (for
 * 100,000 markets about half a second of CPU and its garbage, at every
 * start). A process that cannot reach NATS loads at once and reads again once
 * its handlers have subscribed.
 */
export async function startOddsApp(app: INestApplication): Promise<void> {
  await app.startAllMicroservices();
  await app.get(NatsLink).waitUntilSubscribed(SUBSCRIBE_WAIT_MS);
  await app.init();
}
