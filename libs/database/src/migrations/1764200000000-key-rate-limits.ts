import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A key may carry its own REST rate (requests per second and burst) instead
 * of the service defaults; both are set together or neither is.
 */
export class KeyRateLimits1764200000000 implements MigrationInterface {
  name = 'KeyRateLimits1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE auth.api_keys
        ADD COLUMN rate_rps integer NULL CHECK (rate_rps > 0),
        ADD COLUMN rate_burst integer NULL CHECK (rate_burst > 0),
        ADD CONSTRAINT api_keys_rate_complete CHECK ((rate_rps IS NULL) = (rate_burst IS NULL))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE auth.api_keys
        DROP CONSTRAINT api_keys_rate_complete,
        DROP COLUMN rate_burst,
        DROP COLUMN rate_rps`);
  }
}
