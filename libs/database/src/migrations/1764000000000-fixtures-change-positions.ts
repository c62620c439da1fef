import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each stored live snapshot remembers its position in the fixtures change log
 * (`seq` on stream frames) and the position of the match's change before it,
 * so a snapshot read from storage carries them and a restarted ingest keeps
 * `prev_seq` chained and `seq` growing. Null for states stored while the log
 * could not take them.
 */
export class FixturesChangePositions1764000000000 implements MigrationInterface {
  name = 'FixturesChangePositions1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE fixtures.live_snapshots
        ADD COLUMN change_seq bigint NULL,
        ADD COLUMN prev_change_seq bigint NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE fixtures.live_snapshots DROP COLUMN prev_change_seq, DROP COLUMN change_seq`);
  }
}
