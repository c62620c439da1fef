import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The fixtures catalog (leagues, teams, matches) with the provider id of
 * every row, the latest live snapshot of each match and its frozen results.
 * Our integer ids come from sequences and are never reused; the provider id
 * columns are the mapping that keeps them stable across restarts.
 */
export class FixturesCatalog1763800000000 implements MigrationInterface {
  name = 'FixturesCatalog1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE fixtures.sports ADD COLUMN provider_id text NULL`);
    await queryRunner.query(
      `ALTER TABLE fixtures.sports ADD CONSTRAINT sports_provider_id_key UNIQUE (provider_id)`,
    );
    await queryRunner.query(`
      CREATE TABLE fixtures.leagues (
        id serial PRIMARY KEY,
        provider_id text NOT NULL,
        sport_id integer NOT NULL REFERENCES fixtures.sports (id),
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT leagues_provider_id_key UNIQUE (provider_id)
      )`);
    await queryRunner.query(`CREATE INDEX leagues_sport_id_idx ON fixtures.leagues (sport_id, id)`);
    await queryRunner.query(`
      CREATE TABLE fixtures.teams (
        id text PRIMARY KEY,
        provider_id text NOT NULL,
        name text NOT NULL,
        silk_url text NOT NULL DEFAULT '',
        kit_attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT teams_provider_id_key UNIQUE (provider_id)
      )`);
    await queryRunner.query(
      `CREATE INDEX teams_unresolved_kit_idx ON fixtures.teams (id) WHERE silk_url = ''`,
    );
    await queryRunner.query(`
      CREATE TABLE fixtures.league_teams (
        league_id integer NOT NULL REFERENCES fixtures.leagues (id),
        team_id text NOT NULL REFERENCES fixtures.teams (id),
        PRIMARY KEY (league_id, team_id)
      )`);
    await queryRunner.query(`
      CREATE TABLE fixtures.matches (
        id serial PRIMARY KEY,
        provider_id text NOT NULL,
        league_id integer NOT NULL REFERENCES fixtures.leagues (id),
        sport_id integer NOT NULL REFERENCES fixtures.sports (id),
        stat_id text NOT NULL,
        live_id text NULL,
        home_team_id text NOT NULL,
        away_team_id text NOT NULL,
        home_team text NOT NULL,
        away_team text NOT NULL,
        start_time timestamptz NOT NULL,
        format text NULL,
        provider_status text NOT NULL,
        live_status text NULL,
        status text NOT NULL,
        hidden boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT matches_provider_id_key UNIQUE (provider_id),
        CONSTRAINT matches_status_check CHECK (status IN ('NOT_STARTED', 'STARTED', 'CLOSE_OF_PLAY', 'FINISHED'))
      )`);
    await queryRunner.query(
      `CREATE INDEX matches_league_start_idx ON fixtures.matches (league_id, start_time, id) WHERE NOT hidden`,
    );
    await queryRunner.query(
      `CREATE INDEX matches_league_status_start_idx ON fixtures.matches (league_id, status, start_time, id) WHERE NOT hidden`,
    );
    await queryRunner.query(
      `CREATE INDEX matches_sport_status_start_idx ON fixtures.matches (sport_id, status, start_time, id) WHERE NOT hidden`,
    );
    await queryRunner.query(`CREATE INDEX matches_stat_id_idx ON fixtures.matches (stat_id)`);
    await queryRunner.query(`
      CREATE TABLE fixtures.live_snapshots (
        match_id integer PRIMARY KEY REFERENCES fixtures.matches (id),
        snapshot json NOT NULL,
        upstream_state json NOT NULL,
        seq bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE fixtures.results (
        match_id integer PRIMARY KEY REFERENCES fixtures.matches (id),
        half_time json NULL,
        full_time json NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE fixtures.results`);
    await queryRunner.query(`DROP TABLE fixtures.live_snapshots`);
    await queryRunner.query(`DROP TABLE fixtures.matches`);
    await queryRunner.query(`DROP TABLE fixtures.league_teams`);
    await queryRunner.query(`DROP TABLE fixtures.teams`);
    await queryRunner.query(`DROP TABLE fixtures.leagues`);
    await queryRunner.query(`ALTER TABLE fixtures.sports DROP CONSTRAINT sports_provider_id_key`);
    await queryRunner.query(`ALTER TABLE fixtures.sports DROP COLUMN provider_id`);
  }
}
