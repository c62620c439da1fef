import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNotEmpty, IsString, Matches, Max, Min } from 'class-validator';

export const ROLES = ['all', 'api', 'ingest'] as const;
export type Role = (typeof ROLES)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function toInteger({ value }: { value: unknown }): unknown {
  if (typeof value !== 'string') return value;
  return /^-?\d+$/.test(value.trim()) ? Number(value) : value;
}

function toBoolean({ value }: { value: unknown }): unknown {
  if (typeof value !== 'string') return value;
  const normalized = value.trim().toLowerCase();
  if (normalized === 'true' || normalized === '1') return true;
  if (normalized === 'false' || normalized === '0') return false;
  return value;
}

export const IntegerEnv = (): PropertyDecorator => Transform(toInteger);
export const BooleanEnv = (): PropertyDecorator => Transform(toBoolean);

/** What every process of the platform reads from its environment. */
export class DatabaseEnv {
  @IsString()
  @IsNotEmpty({ message: 'DATABASE_URL is required' })
  DATABASE_URL!: string;

  @BooleanEnv()
  @IsBoolean({ message: 'MIGRATIONS_RUN must be true or false' })
  MIGRATIONS_RUN: boolean = true;
}

export class MessagingEnv extends DatabaseEnv {
  @IsString()
  @IsNotEmpty()
  NATS_URL: string = 'nats://127.0.0.1:4222';

  /** Optional namespace for every subject, so test runs sharing a server stay apart. */
  @IsString()
  @Matches(/^[A-Za-z0-9_-]*$/, { message: 'NATS_SUBJECT_PREFIX may hold only letters, digits, _ and -' })
  NATS_SUBJECT_PREFIX: string = '';
}

export class ServiceEnv extends MessagingEnv {
  @IsIn(ROLES, { message: `ROLE must be one of ${ROLES.join(', ')}` })
  ROLE: Role = 'all';

  @IntegerEnv()
  @IsInt({ message: 'AUTH_CACHE_TTL_MS must be an integer' })
  @Min(0)
  @Max(15000, { message: 'AUTH_CACHE_TTL_MS must not exceed 15000 (key changes must apply within 15 s)' })
  AUTH_CACHE_TTL_MS: number = 15000;

  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'info';

  /** REST requests per second per key, unless the key has its own rate. */
  @IntegerEnv()
  @IsInt({ message: 'RATE_LIMIT_RPS must be an integer' })
  @Min(1, { message: 'RATE_LIMIT_RPS must be at least 1' })
  @Max(1_000_000, { message: 'RATE_LIMIT_RPS must not exceed 1000000' })
  RATE_LIMIT_RPS: number = 50;

  /** Requests a key may make at once before the rate applies (`RateLimit-Limit`). */
  @IntegerEnv()
  @IsInt({ message: 'RATE_LIMIT_BURST must be an integer' })
  @Min(1, { message: 'RATE_LIMIT_BURST must be at least 1' })
  @Max(1_000_000, { message: 'RATE_LIMIT_BURST must not exceed 1000000' })
  RATE_LIMIT_BURST: number = 100;

  /** Open stream sockets one key may hold on one replica of the service. */
  @IntegerEnv()
  @IsInt({ message: 'STREAM_MAX_CONNECTIONS_PER_KEY must be an integer' })
  @Min(1, { message: 'STREAM_MAX_CONNECTIONS_PER_KEY must be at least 1' })
  STREAM_MAX_CONNECTIONS_PER_KEY: number = 50;

  /** Match subscriptions one stream socket may hold. */
  @IntegerEnv()
  @IsInt({ message: 'STREAM_MAX_SUBSCRIPTIONS must be an integer' })
  @Min(1, { message: 'STREAM_MAX_SUBSCRIPTIONS must be at least 1' })
  STREAM_MAX_SUBSCRIPTIONS: number = 2000;
}
