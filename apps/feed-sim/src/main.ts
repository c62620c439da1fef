import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { createFeedSimApp } from './bootstrap';
import type { SimEnv } from './config/sim.env';

async function main(): Promise<void> {
  const app = await createFeedSimApp();
  const port = app.get<ConfigService<SimEnv, true>>(ConfigService).get('SIM_PORT', { infer: true });
  await app.listen(port);
  Logger.log(
    `feed-sim listening on port ${port}: livescores at http://127.0.0.1:${port} ` +
      `(WebSocket /live), sportsbook at http://127.0.0.1:${port}/book`,
    'Bootstrap',
  );
}

main().catch((error: unknown) => {
  Logger.error(error instanceof Error ? error.message : String(error), 'Bootstrap');
  process.exit(1);
});
