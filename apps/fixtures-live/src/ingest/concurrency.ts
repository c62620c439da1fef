/**
 * Runs `task` for every item with at most `limit` in flight. Every item runs
 * even when some fail; the failures are returned (in item order) for the
 * caller to log, so one bad league never stops a catalog poll.
 */
export async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<Array<{ item: T; error: unknown }>> {
  const failures: Array<{ index: number; item: T; error: unknown }> = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      const item = items[index];
      try {
        await task(item);
      } catch (error) {
        failures.push({ index, item, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return failures.sort((a, b) => a.index - b.index).map(({ item, error }) => ({ item, error }));
}

/**
 * Lets at most `limit` tasks run at once; the others wait their turn in
 * order. Bursts (a first catalog poll making hundreds of live matches known at
 * once) then queue here instead of exhausting the database pool.
 */
export class ConcurrencyGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    try {
      return await task();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }
}
