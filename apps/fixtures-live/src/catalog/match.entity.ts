import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { CatalogStatus } from '../live/domain/snapshot.types';

/**
 * A catalog match. `status` is the public catalog status, moved by whichever
 * source changed last: `provider_status` (the previous poll's answer) or
 * `live_status` (derived from the previous live state). Hidden matches
 * (suspended, postponed, cancelled) stay stored and are filtered out of every read.
 */
@Entity({ schema: 'fixtures', name: 'matches' })
export class MatchEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column('text', { name: 'provider_id' })
  providerId!: string;

  @Column('integer', { name: 'league_id' })
  leagueId!: number;

  @Column('integer', { name: 'sport_id' })
  sportId!: number;

  @Column('text', { name: 'stat_id' })
  statId!: string;

  @Column('text', { name: 'live_id', nullable: true })
  liveId!: string | null;

  @Column('text', { name: 'home_team_id' })
  homeTeamId!: string;

  @Column('text', { name: 'away_team_id' })
  awayTeamId!: string;

  @Column('text', { name: 'home_team' })
  homeTeam!: string;

  @Column('text', { name: 'away_team' })
  awayTeam!: string;

  @Column('timestamptz', { name: 'start_time' })
  startTime!: Date;

  @Column('text', { nullable: true })
  format!: string | null;

  @Column('text', { name: 'provider_status' })
  providerStatus!: string;

  @Column('text', { name: 'live_status', nullable: true })
  liveStatus!: CatalogStatus | null;

  @Column('text')
  status!: CatalogStatus;

  @Column('boolean')
  hidden!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
