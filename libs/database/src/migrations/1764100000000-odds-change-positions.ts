import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each stored match remembers the position of its newest change in its
 * book's change log (`seq` on stream frames) and the one before it, so a
 * replica loading the book sends snapshots with their positions and a
 * restarted ingest keeps `prev_seq` chained and `seq` growing.
 */
export class OddsChangePositions1764100000000 implements MigrationInterface {
  name = 'OddsChangePositions1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE odds.matches
        ADD COLUMN change_seq bigint NULL,
        ADD COLUMN prev_change_seq bigint NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE odds.matches DROP COLUMN prev_change_seq, DROP COLUMN change_seq`);
  }
}
