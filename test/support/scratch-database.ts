import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { databaseUrl, PG_ADMIN_URL } from './test-env';

/** An empty database of the suite's own, created before its tests and dropped after; its URL. */
export function scratchDatabase(prefix: string): string {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  let admin: Client;
  beforeAll(async () => {
    admin = new Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
  });
  afterAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  return databaseUrl(name);
}
