import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The latest public snapshot of a match (without `match_id`), stored as
 * `json` so its text keeps the key order it was published with, and the
 * upstream state it was built from, so an unchanged state stays unpublished
 * across restarts.
 */
@Entity({ schema: 'fixtures', name: 'live_snapshots' })
export class LiveSnapshotEntity {
  @PrimaryColumn('integer', { name: 'match_id' })
  matchId!: number;

  @Column('json')
  snapshot!: unknown;

  @Column('json', { name: 'upstream_state' })
  upstreamState!: unknown;

  @Column('bigint')
  seq!: string;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt!: Date;
}
