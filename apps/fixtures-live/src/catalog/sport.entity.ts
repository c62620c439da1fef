import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A fixtures sport; its integer id is ours, stable and never reused. */
@Entity({ schema: 'fixtures', name: 'sports' })
export class SportEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  /** The provider's key for the sport, such as `soccer`. */
  @Column('text', { name: 'provider_key' })
  providerKey!: string;

  /** The provider's id for the sport; null for a sport entered before the catalog was read. */
  @Column('text', { name: 'provider_id', nullable: true })
  providerId!: string | null;

  @Column('text')
  name!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
