/**
 * The process-wide cap on bytes held for stream clients that read too slowly
 * (the socket's unsent bytes plus the frames waiting in its queue). The
 * per-socket bounds alone still let many slow clients together pin a lot of
 * memory; past the budget, the clients holding the most are let go first,
 * because they are the furthest behind and free the most.
 */
export function clientsOverBudget(heldBytes: readonly number[], budgetBytes: number): number[] {
  let total = 0;
  for (const held of heldBytes) total += held;
  if (total <= budgetBytes) return [];
  const byHolding = heldBytes.map((held, index) => ({ held, index })).sort((a, b) => b.held - a.held);
  const chosen: number[] = [];
  for (const { held, index } of byHolding) {
    if (total <= budgetBytes || held === 0) break;
    chosen.push(index);
    total -= held;
  }
  return chosen;
}
