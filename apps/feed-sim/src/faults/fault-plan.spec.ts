import { Random } from '../model/random';
import { FaultPlan } from './fault-plan';

describe('FaultPlan', () => {
  it('never faults at rate 0', () => {
    const plan = new FaultPlan(0, new Random(1));
    for (let i = 0; i < 1000; i++) {
      expect(plan.http()).toBe('none');
      expect(plan.malformedFrame()).toBe(false);
      expect(plan.dropStream(500)).toBe(false);
    }
  });

  it('faults every answer at rate 1, with every kind of fault', () => {
    const plan = new FaultPlan(1, new Random(1));
    const kinds = new Set(Array.from({ length: 300 }, () => plan.http()));
    expect([...kinds].sort()).toEqual(['error', 'malformed', 'slow']);
    expect(plan.errorStatus()).toBeGreaterThanOrEqual(500);
  });

  it('faults roughly the given share of answers', () => {
    const plan = new FaultPlan(0.2, new Random(5));
    const faults = Array.from({ length: 5000 }, () => plan.http()).filter((kind) => kind !== 'none').length;
    expect(faults).toBeGreaterThan(850);
    expect(faults).toBeLessThan(1150);
  });

  it('drops a stream about a fifth of the rate per second', () => {
    const plan = new FaultPlan(0.5, new Random(9));
    const drops = Array.from({ length: 20_000 }, () => plan.dropStream(500)).filter(Boolean).length;
    expect(drops / 20_000).toBeGreaterThan(0.04);
    expect(drops / 20_000).toBeLessThan(0.06);
  });

  it('corrupts a body into something that is not the body', () => {
    const plan = new FaultPlan(1, new Random(2));
    const body = JSON.stringify({ last: 1, markets: [{ key: 's;0;m' }] });
    for (let i = 0; i < 20; i++) expect(plan.corrupt(body)).not.toBe(body);
  });
});
