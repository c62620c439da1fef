import { Principal } from '@app/auth';

/** A key with the odds scope, granted `sports` of the sportsbook grant `book`, for tests of who may read what. */
export function anOddsPrincipal(sports: readonly number[], book = 'book'): Principal {
  return new Principal({
    keyId: 'k',
    accountId: 'a',
    scopes: ['odds'],
    active: true,
    expiresAt: null,
    fixturesSports: [],
    grants: { [book]: sports },
  });
}
