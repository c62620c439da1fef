import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { ApiKeyGuard, AuthModule } from '@app/auth';
import { ClockModule } from '@app/clock';
import { envValidator } from '@app/config';
import { DatabaseModule } from '@app/database';
import { DependencyHealthModule } from '@app/health';
import { MessagingModule } from '@app/messaging';
import { CatalogModule } from './catalog/catalog.module';
import { FixturesExceptionFilter } from './common/filters/fixtures-exception.filter';
import { FixturesEnv } from './config/fixtures.env';
import { HealthModule } from './health/health.module';

@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, validate: envValidator(FixturesEnv) }),
    ClockModule,
    DatabaseModule.forRoot({ applicationName: 'fixtures-live' }),
    MessagingModule.forRoot({ name: 'fixtures-live' }),
    DependencyHealthModule,
    AuthModule.forRoot(),
    HealthModule,
    CatalogModule,
  ],
  providers: [
    { provide: APP_GUARD, useExisting: ApiKeyGuard },
    { provide: APP_FILTER, useClass: FixturesExceptionFilter },
  ],
})
export class AppModule {}
