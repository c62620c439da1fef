import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The key registry shared by both services, and the fixtures sport id table
 * that account allowlists refer to (sports are named by provider key in the
 * key CLI once the catalog has been read).
 */
export class AuthRegistry1763712000000 implements MigrationInterface {
  name = 'AuthRegistry1763712000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS auth`);
    await queryRunner.query(`
      CREATE TABLE auth.accounts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL CHECK (length(name) > 0),
        fixtures_sports integer[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE auth.api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        key_hash char(64) NOT NULL CHECK (key_hash ~ '^[0-9a-f]{64}$'),
        account_id uuid NOT NULL REFERENCES auth.accounts (id) ON DELETE CASCADE,
        scopes text[] NOT NULL DEFAULT '{}',
        active boolean NOT NULL DEFAULT true,
        expires_at timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT api_keys_key_hash_key UNIQUE (key_hash)
      )`);
    await queryRunner.query(`CREATE INDEX api_keys_account_id_idx ON auth.api_keys (account_id)`);
    await queryRunner.query(`
      CREATE TABLE auth.api_key_grants (
        key_id uuid NOT NULL REFERENCES auth.api_keys (id) ON DELETE CASCADE,
        book text NOT NULL CHECK (length(book) > 0),
        sports integer[] NOT NULL DEFAULT '{}',
        PRIMARY KEY (key_id, book)
      )`);
    await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS fixtures`);
    await queryRunner.query(`
      CREATE TABLE fixtures.sports (
        id serial PRIMARY KEY,
        provider_key text NOT NULL,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT sports_provider_key_key UNIQUE (provider_key)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE fixtures.sports`);
    await queryRunner.query(`DROP TABLE auth.api_key_grants`);
    await queryRunner.query(`DROP TABLE auth.api_keys`);
    await queryRunner.query(`DROP TABLE auth.accounts`);
    await queryRunner.query(`DROP SCHEMA auth`);
  }
}
