import { type KeyRecord, Principal } from '@app/auth';

/** A key with the odds scope, granted `sports` of the sportsbook grant `book`, for tests of who may read what. */
export function anOddsPrincipal(sports: readonly number[], book = 'book'): Principal {
  return aPrincipal({ grants: { [book]: sports } });
}

/** An enabled odds key without expiry, granted nothing unless `overrides` say otherwise. */
export function aPrincipal(overrides: Partial<KeyRecord> = {}): Principal {
  return new Principal({
    keyId: 'k',
    accountId: 'a',
    scopes: ['odds'],
    active: true,
    expiresAt: null,
    fixturesSports: [],
    grants: {},
    ...overrides,
  });
}
