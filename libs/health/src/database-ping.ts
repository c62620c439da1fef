import type { DataSource } from 'typeorm';

/** How a piece of database work ended within its time: resolved, rejected, or not yet. */
export type DeadlineOutcome = 'answered' | 'failed' | 'late';

/** Waits for `work` at most `timeoutMs`; work still under way then is left to finish on its own. */
export async function settleWithin(work: Promise<unknown>, timeoutMs: number): Promise<DeadlineOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeoutMs);
  });
  const settled = work.then(
    (): DeadlineOutcome => 'answered',
    (): DeadlineOutcome => 'failed',
  );
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether PostgreSQL answers `SELECT 1` through the data source's pool within `timeoutMs`. A ping
 * that never answers (a server that accepts and stalls) counts as unreachable once the time is up.
 */
export async function pingDatabase(dataSource: DataSource, timeoutMs: number): Promise<boolean> {
  return (await settleWithin(dataSource.query('SELECT 1'), timeoutMs)) === 'answered';
}
