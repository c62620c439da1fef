import { type DynamicModule, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AUTH_OPTIONS, type AuthOptions } from './auth.options';
import { AuthService } from './auth.service';
import { AUTH_ENTITIES } from './entities';
import { ApiKeyGuard } from './guards/api-key.guard';
import { KeyChangesController } from './key-changes.controller';
import { KeyRegistry } from './key-registry';
import { KeyStore } from './key-store';

/**
 * Key registry and guards, identical in both apps. Needs DatabaseModule,
 * MessagingModule and ClockModule in the importing app. Register the guard
 * with `{ provide: APP_GUARD, useExisting: ApiKeyGuard }`.
 */
@Module({})
export class AuthModule {
  static forRoot(): DynamicModule {
    return {
      module: AuthModule,
      // One key registry per process, used by guards, streams and metrics alike.
      global: true,
      imports: [TypeOrmModule.forFeature(AUTH_ENTITIES)],
      controllers: [KeyChangesController],
      providers: [
        {
          provide: AUTH_OPTIONS,
          inject: [ConfigService],
          useFactory: (config: ConfigService<{ AUTH_CACHE_TTL_MS: number }, true>): AuthOptions => ({
            cacheTtlMs: config.get('AUTH_CACHE_TTL_MS', { infer: true }),
          }),
        },
        KeyStore,
        KeyRegistry,
        AuthService,
        ApiKeyGuard,
      ],
      exports: [AuthService, KeyRegistry, ApiKeyGuard],
    };
  }
}
