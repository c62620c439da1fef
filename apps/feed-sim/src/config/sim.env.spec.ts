import { InvalidEnvironmentError, validateEnv } from '@app/config';
import { SimEnv } from './sim.env';

describe('SimEnv', () => {
  it('has defaults for everything', () => {
    expect(validateEnv(SimEnv, {})).toMatchObject({
      SIM_PORT: 4000,
      SIM_SEED: 1,
      SIM_SPEED: 1,
      SIM_SCALE: 1,
      SIM_FAULTS: 0,
    });
  });

  it('reads fractional speeds, scales and fault rates', () => {
    const env = validateEnv(SimEnv, {
      SIM_SPEED: '12.5',
      SIM_SCALE: '100',
      SIM_FAULTS: '0.05',
      SIM_SEED: '42',
    });
    expect(env).toMatchObject({ SIM_SPEED: 12.5, SIM_SCALE: 100, SIM_FAULTS: 0.05, SIM_SEED: 42 });
  });

  it('names every bad variable', () => {
    try {
      validateEnv(SimEnv, { SIM_FAULTS: '2', SIM_SPEED: 'fast', SIM_SCALE: '0' });
      throw new Error('accepted a bad environment');
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidEnvironmentError);
      const problems = (error as InvalidEnvironmentError).problems.join(' ');
      for (const name of ['SIM_FAULTS', 'SIM_SPEED', 'SIM_SCALE']) expect(problems).toContain(name);
    }
  });
});
