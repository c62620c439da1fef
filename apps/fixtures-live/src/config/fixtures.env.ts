import { IsInt, IsNotEmpty, IsOptional, IsString, IsUrl, Matches, Max, Min } from 'class-validator';
import { IntegerEnv, ServiceEnv } from '@app/config';

export class FixturesEnv extends ServiceEnv {
  @IntegerEnv()
  @IsInt({ message: 'PORT must be an integer' })
  @Min(1)
  @Max(65535)
  PORT: number = 3000;

  @IsString()
  @Matches(/^\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/, {
    message: 'BASE_PATH must start with / and contain no trailing slash, such as /v1',
  })
  BASE_PATH: string = '/v1';

  @IsUrl(
    { require_tld: false, protocols: ['http', 'https'] },
    { message: 'FIXTURES_UPSTREAM_URL must be an http(s) URL' },
  )
  FIXTURES_UPSTREAM_URL: string = 'http://127.0.0.1:4000';

  @IntegerEnv()
  @IsInt({ message: 'FIXTURES_CATALOG_POLL_MS must be an integer' })
  @Min(1000)
  FIXTURES_CATALOG_POLL_MS: number = 30000;

  /** How long the change log keeps a change replayable for `resume_after` (at least 120 s in production). */
  @IntegerEnv()
  @IsInt({ message: 'CHANGE_LOG_RETENTION_MS must be an integer' })
  @Min(1000)
  CHANGE_LOG_RETENTION_MS: number = 180000;

  /** Folder of the live board's static files, served at /board when set (the demo sets it). */
  @IsOptional()
  @IsString()
  @IsNotEmpty({ message: 'BOARD_DIR must name a folder when set' })
  BOARD_DIR?: string;
}
