import { IsInt, IsString, IsUrl, Max, Min } from 'class-validator';
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
  /** The simulator serves the sportsbook under /book, beside the live-score provider. */
  BOOK_UPSTREAM_URL: string = 'http://127.0.0.1:4000/book';

  @IntegerEnv()
  @IsInt({ message: 'BOOK_POLL_MS must be an integer' })
  @Min(100)
  BOOK_POLL_MS: number = 1000;

  @IntegerEnv()
  @IsInt({ message: 'BOOK_HEARTBEAT_MS must be an integer' })
  @Min(100)
  BOOK_HEARTBEAT_MS: number = 5000;

  /** Optional JSON list of books (see books.ts); empty means the single default book. */
  @IsString()
  BOOKS: string = '';

  /** How often each sport's matchups (and the sports list) are re-listed in full. */
  @IntegerEnv()
  @IsInt({ message: 'BOOK_RELIST_MS must be an integer' })
  @Min(1000)
  BOOK_RELIST_MS: number = 5000;

  /** How long a book's change log keeps a change replayable for `resume_after` (at least 120 s in production). */
  @IntegerEnv()
  @IsInt({ message: 'CHANGE_LOG_RETENTION_MS must be an integer' })
  @Min(1000)
  CHANGE_LOG_RETENTION_MS: number = 180000;

  /** Longest wait for one upstream response before it counts as a fault. */
  @IntegerEnv()
  @IsInt({ message: 'BOOK_TIMEOUT_MS must be an integer' })
  @Min(100)
  BOOK_TIMEOUT_MS: number = 5000;
}
