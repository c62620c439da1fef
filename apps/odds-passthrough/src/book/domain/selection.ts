/**
 * One bettable outcome, in its public shape (the REST and stream `selections`
 * items), its fields in the order declared here (see `selectionInOrder`).
 */
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

/**
 * The selection with its fields in the declared order, the order the ingest
 * builds them in. A selection read back from a PostgreSQL `jsonb` column
 * comes with its keys sorted by length, and an api replica that loaded the
 * book must serialise it to the same bytes as one that heard it on NATS.
 */
export function selectionInOrder(selection: Selection): Selection {
  return {
    market_key: selection.market_key,
    market_name: selection.market_name,
    period: selection.period,
    bet_name: selection.bet_name,
    ...(selection.line === undefined ? {} : { line: selection.line }),
    price: selection.price,
    decimal: selection.decimal,
    status: selection.status,
    version: selection.version,
    cutoff_at: selection.cutoff_at,
    limit: selection.limit,
  };
}

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
