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
import { RATE_LIMIT_OPTIONS, RateLimits, type RateLimitOptions } from './rate-limit/rate-limits';
import { RateUsedController } from './rate-limit/rate-used.controller';

/**
 * Key registry and guards, identical in both apps. Needs DatabaseModule,
 * MessagingModule and ClockModule in the importing app. Register the guard
 * with `{ provide: APP_GUARD, useExisting: ApiKeyGuard }`.
 */
@Module({})
export class AuthModule {
  /** `service`: the app's name; its replicas share each key's REST rate, other services do not. */
  static forRoot(options: { readonly service: string }): DynamicModule {
    return {
      module: AuthModule,
      // One key registry per process, used by guards, streams and metrics alike.
      global: true,
      imports: [TypeOrmModule.forFeature(AUTH_ENTITIES)],
      controllers: [KeyChangesController, RateUsedController],
      providers: [
        {
          provide: AUTH_OPTIONS,
          inject: [ConfigService],
          useFactory: (config: ConfigService<{ AUTH_CACHE_TTL_MS: number }, true>): AuthOptions => ({
            cacheTtlMs: config.get('AUTH_CACHE_TTL_MS', { infer: true }),
          }),
        },
        {
          provide: RATE_LIMIT_OPTIONS,
          inject: [ConfigService],
          useFactory: (
            config: ConfigService<{ RATE_LIMIT_RPS: number; RATE_LIMIT_BURST: number }, true>,
          ): RateLimitOptions => ({
            defaultRate: {
              rps: config.get('RATE_LIMIT_RPS', { infer: true }),
              burst: config.get('RATE_LIMIT_BURST', { infer: true }),
            },
            service: options.service,
          }),
        },
        RateLimits,
        KeyStore,
        KeyRegistry,
        AuthService,
        ApiKeyGuard,
      ],
      exports: [AuthService, KeyRegistry, ApiKeyGuard, RateLimits],
    };
  }
}
