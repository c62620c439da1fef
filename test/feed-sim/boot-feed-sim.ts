import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AppModule } from '../../apps/feed-sim/src/app.module';
import { configureFeedSimApp } from '../../apps/feed-sim/src/bootstrap';

export interface BootedFeedSim {
  readonly app: INestApplication;
  /** Base URL of the live-score provider; the sportsbook is at `${url}/book`. */
  readonly url: string;
  readonly wsUrl: string;
}

/**
 * Starts the real simulator on a free port with the given environment,
 * restoring the process environment afterwards.
 */
export async function bootFeedSim(env: Record<string, string> = {}): Promise<BootedFeedSim> {
  const saved = { ...process.env };
  try {
    Object.assign(process.env, { LOG_LEVEL: 'warn', ...env });
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot()] }).compile();
    const app = configureFeedSimApp(moduleRef.createNestApplication({ logger: ['error'] }));
    await app.listen(0, '127.0.0.1');
    const { port } = (app.getHttpServer() as Server).address() as AddressInfo;
    return { app, url: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}/live` };
  } finally {
    process.env = saved;
  }
}
