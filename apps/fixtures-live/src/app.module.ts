import { type DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { ApiKeyGuard, AuthModule } from '@app/auth';
import { ClockModule } from '@app/clock';
import { envValidator } from '@app/config';
import { DatabaseModule } from '@app/database';
import { DependencyHealthModule } from '@app/health';
import { MessagingModule } from '@app/messaging';
import { LoggingModule, ObservabilityModule } from '@app/observability';
import { CatalogModule } from './catalog/catalog.module';
import { FixturesExceptionFilter } from './common/filters/fixtures-exception.filter';
import { fixturesValidationPipe } from './common/pipes/fixtures-validation.pipe';
import { FixturesEnv } from './config/fixtures.env';
import { fixturesRole } from './config/fixtures-role';
import { HealthModule } from './health/health.module';
import { IngestModule } from './ingest/ingest.module';
import { LiveModule } from './live/live.module';
import { ResultsModule } from './results/results.module';
import { StreamModule } from './stream/stream.module';
import { TeamsModule } from './teams/teams.module';

/**
 * Built by a function rather than at import time, so the environment is read
 * when the application is created (tests set it per suite).
 */
@Module({})
export class AppModule {
  static forRoot(): DynamicModule {
    const role = fixturesRole();
    const serves = role !== 'ingest';
    const ingests = role !== 'api';
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, validate: envValidator(FixturesEnv) }),
        ClockModule,
        DatabaseModule.forRoot({ applicationName: 'fixtures-live' }),
        MessagingModule.forRoot({ name: 'fixtures-live' }),
        DependencyHealthModule,
        LoggingModule.forRoot(),
        ObservabilityModule,
        AuthModule.forRoot({ service: 'fixtures-live' }),
        HealthModule,
        ...(serves ? [CatalogModule, LiveModule, ResultsModule, StreamModule, TeamsModule] : []),
        ...(ingests ? [IngestModule] : []),
      ],
      providers: [
        { provide: APP_GUARD, useExisting: ApiKeyGuard },
        { provide: APP_FILTER, useClass: FixturesExceptionFilter },
        { provide: APP_PIPE, useFactory: fixturesValidationPipe },
      ],
    };
  }
}
