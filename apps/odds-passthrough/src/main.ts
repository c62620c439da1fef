import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { closeOnSignal } from '@app/observability';
import { createOddsApp, startOddsApp } from './bootstrap';
import type { OddsEnv } from './config/odds.env';

async function main(): Promise<void> {
  const app = await createOddsApp();
  closeOnSignal(app);
  const port = app.get<ConfigService<OddsEnv, true>>(ConfigService).get('PORT', { infer: true });
  await startOddsApp(app);
  await app.listen(port);
  Logger.log(`odds-passthrough listening on port ${port}`, 'Bootstrap');
}

main().catch((error: unknown) => {
  Logger.error(error instanceof Error ? error.message : String(error), 'Bootstrap');
  process.exit(1);
});
