// Client CPU of one batched upsert as the live write-behind sends it (ADR 016), by batch size:
// rows given as `unnest` arrays of ids, snapshot JSON, provider-state JSON and positions, upserted
// by match id, sent through TypeORM's `DataSource.query`. The table is the script's own, with the
// columns of `fixtures.live_snapshots` that carry the bulk; the live writer's statement adds the
// status and result parts, which a plain score change leaves empty. Run from the repository root:
//
//   npm run bench -- --only=write-cost   (node bench/probes/write-statement-cost.js [statements=500])
//
// It creates a throwaway database on BENCH_PG_ADMIN_URL (default
// postgres://postgres@127.0.0.1:5432/postgres) and drops it at the end.
'use strict';

const { randomBytes } = require('node:crypto');
const { DataSource } = require('typeorm');
const { admin, databaseUrl } = require('../support/bench-env');
const { reportFigures } = require('../support/probe-figures');

const STATEMENTS = Number(process.argv[2] ?? 500);
const BATCH_SIZES = [4, 20, 4, 20];

const snapshot = JSON.stringify({
  match_id: 1,
  v: 1,
  sport: 'soccer',
  competition: 'Premier League',
  home: 'Arsenal',
  away: 'Chelsea',
  status: 'live',
  detail: 'x'.repeat(600),
});
const state = JSON.stringify({ sport: 'soccer', detail: 'y'.repeat(500) });

async function upsert(db, size) {
  const ids = Array.from({ length: size }, (_, i) => i + 1);
  await db.query(
    `WITH batch AS (
       SELECT * FROM unnest($1::int[], $2::json[], $3::json[], $4::bigint[], $5::bigint[], $6::bigint[])
         AS b(match_id, snapshot, upstream_state, seq, change_seq, prev_change_seq)
     )
     INSERT INTO live_rows (match_id, snapshot, upstream_state, seq, change_seq, prev_change_seq, updated_at)
     SELECT match_id, snapshot, upstream_state, seq, change_seq, prev_change_seq, now() FROM batch
     ON CONFLICT (match_id) DO UPDATE SET snapshot = EXCLUDED.snapshot,
       upstream_state = EXCLUDED.upstream_state, seq = EXCLUDED.seq, change_seq = EXCLUDED.change_seq,
       prev_change_seq = EXCLUDED.prev_change_seq, updated_at = now()`,
    [
      ids,
      ids.map(() => snapshot),
      ids.map(() => state),
      ids.map(() => 1),
      ids.map(() => 2),
      ids.map(() => 1),
    ],
  );
}

async function main() {
  const name = `bench_statement_${Date.now()}_${randomBytes(2).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  const db = new DataSource({ type: 'postgres', url: databaseUrl(name) });
  try {
    await db.initialize();
    await db.query(
      `CREATE TABLE live_rows (match_id int PRIMARY KEY, snapshot json, upstream_state json, seq bigint,
         change_seq bigint, prev_change_seq bigint, updated_at timestamptz)`,
    );
    const perStatementBySize = new Map();
    for (const size of BATCH_SIZES) {
      for (let i = 0; i < 100; i++) await upsert(db, size);
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      for (let i = 0; i < STATEMENTS; i++) await upsert(db, size);
      const cpu = process.cpuUsage(cpuBefore);
      const perStatement = (cpu.user + cpu.system) / STATEMENTS;
      perStatementBySize.set(size, [...(perStatementBySize.get(size) ?? []), perStatement]);
      console.log(
        `${size} rows a statement: ${perStatement.toFixed(0)} µs CPU a statement, ` +
          `${(perStatement / size).toFixed(0)} µs a row, ${((performance.now() - started) / STATEMENTS).toFixed(2)} ms wall`,
      );
    }
    reportFigures(
      [...perStatementBySize].map(([size, samples]) => ({
        figure: `client CPU per live upsert of ${size} rows`,
        unit: 'µs',
        samples,
      })),
    );
  } finally {
    if (db.isInitialized) await db.destroy();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
