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
import { BookModule } from './book/book.module';
import { CatalogModule } from './catalog/catalog.module';
import { OddsExceptionFilter } from './common/filters/odds-exception.filter';
import { oddsValidationPipe } from './common/pipes/odds-validation.pipe';
import { oddsSettingsFromEnv } from './config/odds-config';
import { OddsEnv } from './config/odds.env';
import { HealthModule } from './health/health.module';
import { IngestModule } from './ingest/ingest.module';
import { StreamModule } from './stream/stream.module';

/**
 * Built by a function rather than at import time, so the environment is read
 * when the application is created (tests set it per suite).
 */
@Module({})
export class AppModule {
  static forRoot(): DynamicModule {
    const { role, books } = oddsSettingsFromEnv();
    const serves = role !== 'ingest';
    const ingests = role !== 'api';
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, validate: envValidator(OddsEnv) }),
        ClockModule,
        DatabaseModule.forRoot({ applicationName: 'odds-passthrough' }),
        MessagingModule.forRoot({ name: 'odds-passthrough' }),
        DependencyHealthModule,
        LoggingModule.forRoot(),
        ObservabilityModule,
        AuthModule.forRoot({ service: 'odds-passthrough' }),
        HealthModule,
        BookModule.forRoot(books),
        ...(serves ? [CatalogModule.forBooks(books)] : []),
        ...(serves ? [StreamModule.forBooks(books)] : []),
        ...(ingests ? [IngestModule] : []),
      ],
      providers: [
        { provide: APP_GUARD, useExisting: ApiKeyGuard },
        { provide: APP_FILTER, useClass: OddsExceptionFilter },
        { provide: APP_PIPE, useFactory: oddsValidationPipe },
      ],
    };
  }
}
