import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FeedSimModule } from './feed-sim.module';

async function main(): Promise<void> {
  const app = await NestFactory.create(FeedSimModule);
  const port = Number(process.env.SIM_PORT ?? 4000);
  app.enableShutdownHooks();
  await app.listen(port);
  Logger.log(`feed-sim listening on port ${port}`, 'Bootstrap');
}

main().catch((error: unknown) => {
  Logger.error(error instanceof Error ? error.message : String(error), 'Bootstrap');
  process.exit(1);
});
