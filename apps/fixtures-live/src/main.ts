import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { closeOnSignal } from '@app/observability';
import { createFixturesApp } from './bootstrap';
import type { FixturesEnv } from './config/fixtures.env';

async function main(): Promise<void> {
  const app = await createFixturesApp();
  closeOnSignal(app);
  const config = app.get<ConfigService<FixturesEnv, true>>(ConfigService);
  const port = config.get('PORT', { infer: true });
  // Handlers listen on NATS once every module has initialised, as HTTP routes do.
  await app.init();
  await app.startAllMicroservices();
  await app.listen(port);
  Logger.log(`fixtures-live listening on port ${port}`, 'Bootstrap');
}

main().catch((error: unknown) => {
  Logger.error(error instanceof Error ? error.message : String(error), 'Bootstrap');
  process.exit(1);
});
