import {
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  OneToMany,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { Scope } from '../scopes';
import { AccountEntity } from './account.entity';
import { SportsbookGrantEntity } from './sportsbook-grant.entity';

@Entity({ schema: 'auth', name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  /** SHA-256 of the whole key, hex. Never selected unless asked for. */
  @Column('char', { name: 'key_hash', length: 64, select: false })
  keyHash!: string;

  @Column('uuid', { name: 'account_id' })
  accountId!: string;

  @ManyToOne(() => AccountEntity, (account) => account.keys, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: AccountEntity;

  @Column('text', { array: true, default: () => "'{}'" })
  scopes!: Scope[];

  @Column('boolean', { default: true })
  active!: boolean;

  @Column('timestamptz', { name: 'expires_at', nullable: true })
  expiresAt!: Date | null;

  /** The key's own REST rate; null: the service defaults (RATE_LIMIT_RPS, RATE_LIMIT_BURST). */
  @Column('integer', { name: 'rate_rps', nullable: true })
  rateRps!: number | null;

  @Column('integer', { name: 'rate_burst', nullable: true })
  rateBurst!: number | null;

  @OneToMany(() => SportsbookGrantEntity, (grant) => grant.key, { cascade: true })
  grants?: SportsbookGrantEntity[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
