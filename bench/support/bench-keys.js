// API keys for the bench scripts, written straight into the auth schema of their throwaway
// database (stored hashed, as the key registry stores them).
'use strict';
const { createHash, randomBytes } = require('node:crypto');

/**
 * Issues a key for a new account: `scopes`, the fixtures sports the account sees, and the
 * sportsbook grants of the key (`{ book: [sport ids] }`). Resolves with the key itself.
 */
async function issueBenchKey(dataSource, { scopes, fixturesSports = [], grants = {} }) {
  const key = `sk_${randomBytes(24).toString('base64url')}`;
  const [account] = await dataSource.query(
    `INSERT INTO auth.accounts (name, fixtures_sports) VALUES ('bench', $1) RETURNING id`,
    [fixturesSports],
  );
  const [apiKey] = await dataSource.query(
    `INSERT INTO auth.api_keys (key_hash, account_id, scopes) VALUES ($1, $2, $3) RETURNING id`,
    [createHash('sha256').update(key).digest('hex'), account.id, scopes],
  );
  for (const [book, sports] of Object.entries(grants)) {
    await dataSource.query(`INSERT INTO auth.api_key_grants (key_id, book, sports) VALUES ($1, $2, $3)`, [
      apiKey.id,
      book,
      sports,
    ]);
  }
  return key;
}

module.exports = { issueBenchKey };
