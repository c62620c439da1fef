import type { Selection } from './selection';
import { selectionsAt } from './selection-status';

const open: Selection = {
  market_key: 's;0;m',
  market_name: 'Match - Money Line',
  period: 0,
  bet_name: 'Arsenal',
  price: 150,
  decimal: 2.5,
  status: 'unlocked',
  version: 5,
  cutoff_at: '2026-11-21T15:00:00Z',
  limit: 5000,
};
const cutoff = Date.parse(open.cutoff_at);

describe('selectionsAt', () => {
  it('returns the same array before the cutoff', () => {
    const list = [open];
    expect(selectionsAt(list, cutoff - 1)).toBe(list);
  });

  it('locks at and after the cutoff, keeping price and version', () => {
    const [s] = selectionsAt([open], cutoff);
    expect(s).toEqual({ ...open, status: 'locked' });
    expect(open.status).toBe('unlocked');
  });
});
