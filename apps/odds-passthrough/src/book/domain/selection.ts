/** One bettable outcome, in its public shape (the REST and stream `selections` items). */
export interface Selection {
  readonly market_key: string;
  readonly market_name: string;
  readonly period: number;
  readonly bet_name: string;
  readonly line?: number;
  readonly price: number;
  readonly decimal: number;
  readonly status: SelectionStatus;
  readonly version: number;
  readonly cutoff_at: string;
  readonly limit: number;
}

export type SelectionStatus = 'locked' | 'unlocked';

/** Selections grouped by market, in the order their markets first appear. */
export function groupByMarket(selections: readonly Selection[]): Map<string, Selection[]> {
  const groups = new Map<string, Selection[]>();
  for (const selection of selections) {
    const group = groups.get(selection.market_key);
    if (group) group.push(selection);
    else groups.set(selection.market_key, [selection]);
  }
  return groups;
}
