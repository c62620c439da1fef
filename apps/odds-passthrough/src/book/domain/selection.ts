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
  const {
    market_key,
    market_name,
    period,
    bet_name,
    line,
    price,
    decimal,
    status,
    version,
    cutoff_at,
    limit,
  } = selection;
  // Two literals, not a spread of an optional line: a load reads every selection of the book.
  return line === undefined
    ? { market_key, market_name, period, bet_name, price, decimal, status, version, cutoff_at, limit }
    : { market_key, market_name, period, bet_name, line, price, decimal, status, version, cutoff_at, limit };
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
