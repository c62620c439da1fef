import {
  type DynamicModule,
  type MiddlewareConsumer,
  Module,
  type NestModule,
  RequestMethod,
} from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { ClockModule } from '@app/clock';
import { envValidator } from '@app/config';
import { LoggingModule } from '@app/observability';
import { SimEnv } from './config/sim.env';
import { FaultMiddleware } from './faults/fault.middleware';
import { HealthController } from './health.controller';
import { LiveStream } from './livescores/live-stream';
import { LivescoresController } from './livescores/livescores.controller';
import { SimulationService } from './simulation/simulation.service';
import { SportsbookController } from './sportsbook/sportsbook.controller';

/**
 * The upstream simulator: the live-score provider at the root and the
 * sportsbook under /book, over one simulated world. Built by a function so
 * the environment is read when the application is created.
 */
@Module({})
export class AppModule implements NestModule {
  static forRoot(): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, validate: envValidator(SimEnv) }),
        ClockModule,
        LoggingModule.forRoot(),
      ],
      controllers: [HealthController, LivescoresController, SportsbookController],
      providers: [SimulationService, LiveStream, FaultMiddleware],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(FaultMiddleware)
      .exclude({ path: 'healthz', method: RequestMethod.GET })
      .forRoutes({ path: '*path', method: RequestMethod.ALL });
  }
}
