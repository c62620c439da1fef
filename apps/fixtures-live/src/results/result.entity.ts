import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** Frozen half-time and full-time snapshots; each column is written once and never again. */
@Entity({ schema: 'fixtures', name: 'results' })
export class ResultEntity {
  @PrimaryColumn('integer', { name: 'match_id' })
  matchId!: number;

  @Column('json', { name: 'half_time', nullable: true })
  halfTime!: unknown;

  @Column('json', { name: 'full_time', nullable: true })
  fullTime!: unknown;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
