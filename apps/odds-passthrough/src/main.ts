import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { closeOnSignal } from '@app/observability';
import { createOddsApp } from './bootstrap';
import type { OddsEnv } from './config/odds.env';

async function main(): Promise<void> {
  const app = await createOddsApp();
  closeOnSignal(app);
  const port = app.get<ConfigService<OddsEnv, true>>(ConfigService).get('PORT', { infer: true });
  // Handlers listen on NATS once every module has initialised, as HTTP routes do.
  await app.init();
  await app.startAllMicroservices();
  await app.listen(port);
  Logger.log(`odds-passthrough listening on port ${port}`, 'Bootstrap');
}

main().catch((error: unknown) => {
  Logger.error(error instanceof Error ? error.message : String(error), 'Bootstrap');
  process.exit(1);
});
