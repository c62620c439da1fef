import type { Selection } from '../../apps/odds-passthrough/src/book/domain/selection';

/**
 * A selection in its public shape, for tests of what holds or sends them: an
 * unlocked money-line price far from its cutoff, `overrides` on top. Its keys
 * keep the public order; an override of the optional `line` goes last.
 */
export function aSelection(overrides: Partial<Selection> = {}): Selection {
  return {
    market_key: 's;0;m',
    market_name: 'Match - Money Line',
    period: 0,
    bet_name: 'Home',
    price: 150,
    decimal: 2.5,
    status: 'unlocked',
    version: 1,
    cutoff_at: '2030-01-01T00:00:00Z',
    limit: 5000,
    ...overrides,
  };
}
