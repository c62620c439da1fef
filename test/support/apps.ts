import type { Server } from 'node:http';
import type { INestApplication, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Clock, ManualClock } from '@app/clock';
import { AppModule as FixturesAppModule } from '../../apps/fixtures-live/src/app.module';
import { configureFixturesApp } from '../../apps/fixtures-live/src/bootstrap';
import { AppModule as OddsAppModule } from '../../apps/odds-passthrough/src/app.module';
import { configureOddsApp, startOddsApp } from '../../apps/odds-passthrough/src/bootstrap';
import { runServiceEnv } from './test-env';

export interface BootOptions {
  /** Environment on top of this run's database and the machine's NATS. */
  readonly env?: Record<string, string>;
  /** Extra controllers mounted in the real application (probes for tests). */
  readonly controllers?: Type[];
  /** Replaces the system clock, so a test can move time. */
  readonly clock?: ManualClock;
  /** False: the NATS handlers are not started; the test calls `startAllMicroservices` itself. */
  readonly startMessaging?: boolean;
  /** Called once the application is built, before anything starts (a test's probes go in here). */
  readonly beforeStart?: (app: INestApplication) => void;
}

export interface BootedApp {
  readonly app: INestApplication;
  readonly clock: ManualClock;
}

/**
 * Builds a real application (the production module and pipeline) with the
 * given environment. The environment is restored afterwards, because the
 * config module writes its defaults into process.env.
 */
async function boot(
  module: { forRoot(): ReturnType<typeof FixturesAppModule.forRoot> },
  configure: (app: INestApplication) => INestApplication,
  options: BootOptions,
  /** The service's own start, as main.ts runs it; by default modules first, then the NATS handlers. */
  start?: (app: INestApplication) => Promise<void>,
): Promise<BootedApp> {
  const saved = { ...process.env };
  const clock = options.clock ?? new ManualClock(Date.now());
  try {
    Object.assign(process.env, { ...runServiceEnv(), ...options.env });
    const moduleRef = await Test.createTestingModule({
      imports: [module.forRoot()],
      controllers: options.controllers ?? [],
    })
      .overrideProvider(Clock)
      .useValue(clock)
      .compile();
    const app = configure(moduleRef.createNestApplication({ logger: ['error'], bodyParser: false }));
    options.beforeStart?.(app);
    if (start && options.startMessaging !== false) await start(app);
    else {
      await app.init();
      if (options.startMessaging !== false) await app.startAllMicroservices();
    }
    return { app, clock };
  } finally {
    process.env = saved;
  }
}

export function bootFixtures(options: BootOptions = {}): Promise<BootedApp> {
  return boot(FixturesAppModule, configureFixturesApp, options);
}

export function bootOdds(options: BootOptions = {}): Promise<BootedApp> {
  return boot(OddsAppModule, configureOddsApp, options);
}

/** odds-passthrough started as main.ts starts it: NATS handlers first, then the modules. */
export function bootOddsAsMain(options: BootOptions = {}): Promise<BootedApp> {
  return boot(OddsAppModule, configureOddsApp, options, startOddsApp);
}

/** The application's HTTP server, typed for supertest. */
export function http(app: INestApplication): Server {
  return app.getHttpServer() as Server;
}
