import {
  Column,
  CreateDateColumn,
  Entity,
  OneToMany,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';

@Entity({ schema: 'auth', name: 'accounts' })
export class AccountEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column('text')
  name!: string;

  /** Fixtures sport ids the account may see. */
  @Column('integer', { name: 'fixtures_sports', array: true, default: () => "'{}'" })
  fixturesSports!: number[];

  @OneToMany(() => ApiKeyEntity, (key) => key.account)
  keys?: ApiKeyEntity[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
