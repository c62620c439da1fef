// API keys for the bench scripts, written straight into the auth schema of their throwaway
// database (stored hashed, as the key registry stores them).
'use strict';
const { createHash, randomBytes } = require('node:crypto');

/** The highest rate a key may have (RATE_LIMIT_RPS and --rate allow up to this). */
const BENCH_RATE = 1_000_000;

/** Environment for a service under a bench: one key may hold every socket the bench opens. */
const UNLIMITED_STREAMS = { STREAM_MAX_CONNECTIONS_PER_KEY: '1000000', STREAM_MAX_SUBSCRIPTIONS: '1000000' };

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
    // A rate far above any load a bench makes: the benches measure the services, not the limits.
    `INSERT INTO auth.api_keys (key_hash, account_id, scopes, rate_rps, rate_burst)
       VALUES ($1, $2, $3, $4, $4) RETURNING id`,
    [createHash('sha256').update(key).digest('hex'), account.id, scopes, BENCH_RATE],
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

module.exports = { issueBenchKey, BENCH_RATE, UNLIMITED_STREAMS };
