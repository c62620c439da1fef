import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ApiKeyEntity } from './entities';
import type { KeyRecord } from './key-record';

/** Reads key records from PostgreSQL by hash; one query per lookup. */
@Injectable()
export class KeyStore {
  constructor(@InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>) {}

  async findByHash(keyHash: string): Promise<KeyRecord | null> {
    const key = await this.keys.findOne({
      where: { keyHash },
      relations: { account: true, grants: true },
    });
    return key ? toKeyRecord(key) : null;
  }
}

export function toKeyRecord(key: ApiKeyEntity): KeyRecord {
  if (!key.account) throw new Error(`key ${key.id} was loaded without its account`);
  return {
    keyId: key.id,
    accountId: key.accountId,
    scopes: key.scopes,
    active: key.active,
    expiresAt: key.expiresAt,
    fixturesSports: key.account.fixturesSports,
    grants: Object.fromEntries((key.grants ?? []).map((grant) => [grant.book, grant.sports])),
    rate: key.rateRps !== null && key.rateBurst !== null ? { rps: key.rateRps, burst: key.rateBurst } : null,
  };
}
