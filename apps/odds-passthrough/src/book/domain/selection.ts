/** One bettable outcome, in the public shape of the odds specification. */
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
