import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';
import { SportsbookGrantEntity } from './sportsbook-grant.entity';

export { AccountEntity, ApiKeyEntity, SportsbookGrantEntity };

export const AUTH_ENTITIES = [AccountEntity, ApiKeyEntity, SportsbookGrantEntity];
