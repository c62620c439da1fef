/** Runs a parted computation (a generator that yields between parts) to its end; counts its yields. */
export function countParts<T>(parts: Generator<void, T, void>): { yields: number; value: T } {
  let yields = 0;
  for (;;) {
    const step = parts.next();
    if (step.done) return { yields, value: step.value };
    yields++;
  }
}
