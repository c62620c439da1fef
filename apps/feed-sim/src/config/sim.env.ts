import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsNumber, Max, Min } from 'class-validator';
import { IntegerEnv, LOG_LEVELS, type LogLevel } from '@app/config';

const NumberEnv = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value,
  );

/** The simulator's environment, validated once at start. */
export class SimEnv {
  @IntegerEnv()
  @IsInt({ message: 'SIM_PORT must be an integer' })
  @Min(1)
  @Max(65535)
  SIM_PORT: number = 4000;

  @IntegerEnv()
  @IsInt({ message: 'SIM_SEED must be an integer' })
  @Min(0)
  @Max(2 ** 31 - 1)
  SIM_SEED: number = 1;

  /** Simulated seconds per wall second. */
  @NumberEnv()
  @IsNumber({}, { message: 'SIM_SPEED must be a number' })
  @Min(0.1, { message: 'SIM_SPEED must be at least 0.1' })
  @Max(3600, { message: 'SIM_SPEED must not exceed 3600' })
  SIM_SPEED: number = 1;

  /** 1 is the demo (a few leagues, ~30 matches); 100 is a busy Saturday (about 10,000 matches). */
  @NumberEnv()
  @IsNumber({}, { message: 'SIM_SCALE must be a number' })
  @Min(1, { message: 'SIM_SCALE must be at least 1' })
  @Max(400, { message: 'SIM_SCALE must not exceed 400' })
  SIM_SCALE: number = 1;

  /** Share of answers, frames and stream seconds that go wrong on purpose. */
  @NumberEnv()
  @IsNumber({}, { message: 'SIM_FAULTS must be a number' })
  @Min(0, { message: 'SIM_FAULTS must be between 0 and 1' })
  @Max(1, { message: 'SIM_FAULTS must be between 0 and 1' })
  SIM_FAULTS: number = 0;

  @IntegerEnv()
  @IsInt({ message: 'SIM_TICK_MS must be an integer' })
  @Min(50)
  @Max(5000)
  SIM_TICK_MS: number = 500;

  /** How long after start the sportsbook's label tables are missing. */
  @IntegerEnv()
  @IsInt({ message: 'SIM_BOOK_COLD_MS must be an integer' })
  @Min(0)
  SIM_BOOK_COLD_MS: number = 5000;

  /** Kits become known, team by team, within this long after start. */
  @IntegerEnv()
  @IsInt({ message: 'SIM_KIT_DELAY_MS must be an integer' })
  @Min(0)
  SIM_KIT_DELAY_MS: number = 30000;

  /** How long the sportsbook remembers a delta cursor; older ones answer 410. */
  @IntegerEnv()
  @IsInt({ message: 'SIM_DELTA_RETENTION_MS must be an integer' })
  @Min(1000)
  SIM_DELTA_RETENTION_MS: number = 60000;

  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'info';
}
