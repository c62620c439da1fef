import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The odds passthrough's shared current state, written by the ingest and read
 * by every api replica at start. Rows are keyed by book so several books share
 * the tables. Market rows keep the selections exactly as published, and their
 * versions, so a restarted ingest issues greater ones.
 */
export class OddsBook1763900000000 implements MigrationInterface {
  name = 'OddsBook1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS odds`);
    await queryRunner.query(`
      CREATE TABLE odds.sports (
        book text NOT NULL,
        id bigint NOT NULL,
        name text NOT NULL,
        PRIMARY KEY (book, id)
      )`);
    await queryRunner.query(`
      CREATE TABLE odds.leagues (
        book text NOT NULL,
        id bigint NOT NULL,
        sport_id bigint NOT NULL,
        name text NOT NULL,
        PRIMARY KEY (book, id)
      )`);
    await queryRunner.query(`
      CREATE TABLE odds.matches (
        book text NOT NULL,
        id bigint NOT NULL,
        sport_id bigint NOT NULL,
        body jsonb NOT NULL,
        version bigint NOT NULL,
        ts bigint NOT NULL,
        PRIMARY KEY (book, id)
      )`);
    await queryRunner.query(`
      CREATE TABLE odds.markets (
        book text NOT NULL,
        match_id bigint NOT NULL,
        market_key text NOT NULL,
        version bigint NOT NULL,
        selections jsonb NOT NULL,
        PRIMARY KEY (book, match_id, market_key)
      )`);
    await queryRunner.query(`
      CREATE TABLE odds.feeds (
        book text PRIMARY KEY,
        last_success_at bigint NULL,
        full_loaded boolean NOT NULL DEFAULT false
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE odds.feeds`);
    await queryRunner.query(`DROP TABLE odds.markets`);
    await queryRunner.query(`DROP TABLE odds.matches`);
    await queryRunner.query(`DROP TABLE odds.leagues`);
    await queryRunner.query(`DROP TABLE odds.sports`);
    await queryRunner.query(`DROP SCHEMA odds`);
  }
}
