import { Client } from 'pg';
import { PG_ADMIN_URL } from './test-env';

export default async function globalTeardown(): Promise<void> {
  const name = process.env.TEST_RUN_DATABASE_NAME;
  if (!name) return;
  const admin = new Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
