import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A league; its integer id is ours, mapped from the provider's id and never reused. */
@Entity({ schema: 'fixtures', name: 'leagues' })
export class LeagueEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column('text', { name: 'provider_id' })
  providerId!: string;

  @Column('integer', { name: 'sport_id' })
  sportId!: number;

  @Column('text')
  name!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
