import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';

/** One sportsbook a key may read, with the sportsbook sport ids allowed there. */
@Entity({ schema: 'auth', name: 'api_key_grants' })
export class SportsbookGrantEntity {
  @PrimaryColumn('uuid', { name: 'key_id' })
  keyId!: string;

  @PrimaryColumn('text')
  book!: string;

  @Column('integer', { array: true, default: () => "'{}'" })
  sports!: number[];

  @ManyToOne(() => ApiKeyEntity, (key) => key.grants, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'key_id' })
  key?: ApiKeyEntity;
}
