import type { DataSource, EntityManager } from 'typeorm';
import { generateApiKey, hashApiKey } from '../api-key';
import { AccountEntity, ApiKeyEntity, SportsbookGrantEntity } from '../entities';
import type { RateLimit } from '../rate-limit/token-bucket';
import type { Scope } from '../scopes';
import { CliError, type RateChange, type SportRef } from './cli-args';

/** How a key is shown to an operator: everything but the key itself. */
export interface KeyView {
  readonly id: string;
  readonly account: string;
  readonly scopes: readonly Scope[];
  readonly active: boolean;
  readonly expires_at: string | null;
  readonly grants: Readonly<Record<string, readonly number[]>>;
  /** The key's own REST rate; null: the service defaults apply. */
  readonly rate: RateLimit | null;
  readonly created_at: string;
  readonly updated_at: string;
}

export interface KeyChanges {
  readonly scopes?: readonly Scope[];
  readonly expiresAt?: Date | null;
  readonly grants?: Readonly<Record<string, readonly number[]>>;
  readonly rate?: RateChange;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The key registry's write side, used by `npm run keys`. */
export class KeyAdmin {
  constructor(private readonly dataSource: DataSource) {}

  async createAccount(name: string, sports: readonly SportRef[]): Promise<string> {
    const sportIds = await this.resolveSports(sports);
    const account = await this.dataSource
      .getRepository(AccountEntity)
      .save({ name, fixturesSports: sportIds });
    return account.id;
  }

  async setAccountSports(accountId: string, sports: readonly SportRef[]): Promise<number[]> {
    const sportIds = await this.resolveSports(sports);
    await this.requireAccount(accountId);
    await this.dataSource
      .getRepository(AccountEntity)
      .update({ id: accountId }, { fixturesSports: sportIds });
    return sportIds;
  }

  async issueKey(
    accountId: string,
    scopes: readonly Scope[],
    expiresAt: Date | null,
    grants: Readonly<Record<string, readonly number[]>>,
    rate: RateChange = null,
  ): Promise<{ id: string; key: string }> {
    await this.requireAccount(accountId);
    const key = generateApiKey();
    const id = await this.dataSource.transaction(async (manager) => {
      const saved = await manager.getRepository(ApiKeyEntity).save({
        keyHash: hashApiKey(key),
        accountId,
        scopes: [...scopes],
        active: true,
        expiresAt,
        ...rateColumns(rate),
      });
      await replaceGrants(manager, saved.id, grants);
      return saved.id;
    });
    return { id, key };
  }

  async updateKey(keyId: string, changes: KeyChanges): Promise<KeyView> {
    await this.requireKey(keyId);
    await this.dataSource.transaction(async (manager) => {
      await manager.getRepository(ApiKeyEntity).update(
        { id: keyId },
        {
          ...(changes.scopes !== undefined && { scopes: [...changes.scopes] }),
          ...(changes.expiresAt !== undefined && { expiresAt: changes.expiresAt }),
          ...(changes.rate !== undefined && rateColumns(changes.rate)),
          updatedAt: new Date(),
        },
      );
      if (changes.grants !== undefined) await replaceGrants(manager, keyId, changes.grants);
    });
    return this.showKey(keyId);
  }

  async setKeyActive(keyId: string, active: boolean): Promise<KeyView> {
    await this.requireKey(keyId);
    await this.dataSource.getRepository(ApiKeyEntity).update({ id: keyId }, { active });
    return this.showKey(keyId);
  }

  async listKeys(accountId?: string): Promise<KeyView[]> {
    if (accountId !== undefined) await this.requireAccount(accountId);
    const keys = await this.dataSource.getRepository(ApiKeyEntity).find({
      where: accountId === undefined ? {} : { accountId },
      relations: { grants: true },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return keys.map(toKeyView);
  }

  async showKey(keyId: string): Promise<KeyView> {
    const key = await this.dataSource
      .getRepository(ApiKeyEntity)
      .findOne({ where: { id: keyId }, relations: { grants: true } });
    if (!key) throw new CliError(`unknown key: ${keyId}`);
    return toKeyView(key);
  }

  /** Ids as given; provider keys through the fixtures catalog. Sorted, without repeats. */
  private async resolveSports(sports: readonly SportRef[]): Promise<number[]> {
    const ids = new Set<number>();
    const names: string[] = [];
    for (const sport of sports) {
      if ('id' in sport) ids.add(sport.id);
      else names.push(sport.providerKey);
    }
    if (names.length > 0) {
      const rows = await this.dataSource.query<Array<{ id: number; provider_key: string }>>(
        'SELECT id, provider_key FROM fixtures.sports WHERE provider_key = ANY($1)',
        [names],
      );
      const byKey = new Map(rows.map((row) => [row.provider_key, row.id]));
      for (const name of names) {
        const id = byKey.get(name);
        if (id === undefined) throw new CliError(`unknown sport: ${name}`);
        ids.add(id);
      }
    }
    return [...ids].sort((a, b) => a - b);
  }

  private async requireAccount(accountId: string): Promise<void> {
    const exists =
      UUID.test(accountId) &&
      (await this.dataSource.getRepository(AccountEntity).existsBy({ id: accountId }));
    if (!exists) throw new CliError(`unknown account: ${accountId}`);
  }

  private async requireKey(keyId: string): Promise<void> {
    const exists =
      UUID.test(keyId) && (await this.dataSource.getRepository(ApiKeyEntity).existsBy({ id: keyId }));
    if (!exists) throw new CliError(`unknown key: ${keyId}`);
  }
}

/** `--grant` options replace the key's grants as a whole. */
async function replaceGrants(
  manager: EntityManager,
  keyId: string,
  grants: Readonly<Record<string, readonly number[]>>,
): Promise<void> {
  const repository = manager.getRepository(SportsbookGrantEntity);
  await repository.delete({ keyId });
  const rows = Object.entries(grants).map(([book, sports]) => ({ keyId, book, sports: [...sports] }));
  if (rows.length > 0) await repository.insert(rows);
}

function rateColumns(rate: RateChange): { rateRps: number | null; rateBurst: number | null } {
  return { rateRps: rate?.rps ?? null, rateBurst: rate?.burst ?? null };
}

function toKeyView(key: ApiKeyEntity): KeyView {
  const grants = [...(key.grants ?? [])].sort((a, b) => a.book.localeCompare(b.book));
  return {
    id: key.id,
    account: key.accountId,
    scopes: key.scopes,
    active: key.active,
    expires_at: key.expiresAt ? key.expiresAt.toISOString() : null,
    grants: Object.fromEntries(grants.map((grant) => [grant.book, grant.sports])),
    rate: key.rateRps !== null && key.rateBurst !== null ? { rps: key.rateRps, burst: key.rateBurst } : null,
    created_at: key.createdAt.toISOString(),
    updated_at: key.updatedAt.toISOString(),
  };
}
