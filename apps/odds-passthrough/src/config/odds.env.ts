import { IsInt, IsUrl, Max, Min } from 'class-validator';
import { IntegerEnv, ServiceEnv } from '@app/config';

export class OddsEnv extends ServiceEnv {
  @IntegerEnv()
  @IsInt({ message: 'PORT must be an integer' })
  @Min(1)
  @Max(65535)
  PORT: number = 3001;

  @IsUrl(
    { require_tld: false, protocols: ['http', 'https'] },
    { message: 'BOOK_UPSTREAM_URL must be an http(s) URL' },
  )
  BOOK_UPSTREAM_URL: string = 'http://127.0.0.1:4000';

  @IntegerEnv()
  @IsInt({ message: 'BOOK_POLL_MS must be an integer' })
  @Min(100)
  BOOK_POLL_MS: number = 1000;

  @IntegerEnv()
  @IsInt({ message: 'BOOK_HEARTBEAT_MS must be an integer' })
  @Min(100)
  BOOK_HEARTBEAT_MS: number = 5000;
}
