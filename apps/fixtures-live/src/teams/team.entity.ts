import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A team; `id` is an opaque string derived from the provider's id (see `teamIdFor`). */
@Entity({ schema: 'fixtures', name: 'teams' })
export class TeamEntity {
  @PrimaryColumn('text')
  id!: string;

  @Column('text', { name: 'provider_id' })
  providerId!: string;

  @Column('text')
  name!: string;

  /** Empty until the kit has been resolved. */
  @Column('text', { name: 'silk_url' })
  silkUrl!: string;

  @Column('integer', { name: 'kit_attempts' })
  kitAttempts!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
