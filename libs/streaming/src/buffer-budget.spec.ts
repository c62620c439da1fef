import { clientsOverBudget } from './buffer-budget';

describe('clientsOverBudget', () => {
  it('lets nobody go while the total is within the budget', () => {
    expect(clientsOverBudget([], 100)).toEqual([]);
    expect(clientsOverBudget([40, 60], 100)).toEqual([]);
  });

  it('lets the biggest holders go first, only as many as it takes', () => {
    expect(clientsOverBudget([10, 70, 5, 40], 100)).toEqual([1]);
    expect(clientsOverBudget([10, 70, 5, 40], 20)).toEqual([1, 3]);
  });

  it('never picks a client that holds nothing', () => {
    expect(clientsOverBudget([0, 0, 150], 100)).toEqual([2]);
    expect(clientsOverBudget([0, 0], -1)).toEqual([]);
  });
});
