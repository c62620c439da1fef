import { Client } from 'pg';
import { waitFor } from './wait-for';

/**
 * Waits until `sql` (one `id` column) finds a row in the database at
 * `databaseUrl`, and returns its id: for rows an ingest stores shortly.
 */
export async function storedId(
  databaseUrl: string,
  sql: string,
  params: readonly unknown[],
  what: string,
): Promise<number> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    let id = 0;
    await waitFor(
      async () => {
        id = (await db.query<{ id: number }>(sql, [...params])).rows[0]?.id ?? 0;
        return id > 0;
      },
      { timeoutMs: 20_000, what },
    );
    return id;
  } finally {
    await db.end();
  }
}
