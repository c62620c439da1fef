import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lets a new ingest term find what the previous one stored but never
 * published. Every write of the ingest takes a generation from
 * `odds.write_gen`; a match row keeps the generation of its last stored
 * change and of its last publication, so `stored_gen > published_gen` marks
 * a match whose newest change never went out. Removals are kept as
 * tombstones (a removed match, a market with no selections and the
 * generation that removed it) until published, so a new term can still
 * announce them.
 */
export class OddsUnpublishedChanges1764300000000 implements MigrationInterface {
  name = 'OddsUnpublishedChanges1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SEQUENCE odds.write_gen`);
    await queryRunner.query(`
      ALTER TABLE odds.matches
        ADD COLUMN stored_gen bigint NOT NULL DEFAULT 0,
        ADD COLUMN published_gen bigint NOT NULL DEFAULT 0,
        ADD COLUMN removed boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE odds.markets ADD COLUMN removed_gen bigint NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM odds.markets WHERE removed_gen IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE odds.markets DROP COLUMN removed_gen`);
    await queryRunner.query(`DELETE FROM odds.markets m USING odds.matches x
      WHERE x.removed AND m.book = x.book AND m.match_id = x.id`);
    await queryRunner.query(`DELETE FROM odds.matches WHERE removed`);
    await queryRunner.query(`
      ALTER TABLE odds.matches DROP COLUMN removed, DROP COLUMN published_gen, DROP COLUMN stored_gen`);
    await queryRunner.query(`DROP SEQUENCE odds.write_gen`);
  }
}
