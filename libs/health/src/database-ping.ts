import type { DataSource } from 'typeorm';

/**
 * Whether PostgreSQL answers `SELECT 1` through the data source's pool within `timeoutMs`. A ping
 * that never answers (a server that accepts and stalls) counts as unreachable once the time is up.
 */
export async function pingDatabase(dataSource: DataSource, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const ping = dataSource.query('SELECT 1').then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([ping, late]);
  } finally {
    clearTimeout(timer);
  }
}
