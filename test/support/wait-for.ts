/**
 * Polls `check` until it returns true, failing after `timeoutMs`. Tests wait
 * for conditions this way, never for fixed delays. Returns the elapsed time.
 */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  {
    timeoutMs,
    intervalMs = 20,
    what = 'condition',
  }: { timeoutMs: number; intervalMs?: number; what?: string },
): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
