import { ServiceEnv } from './common.env';
import { InvalidEnvironmentError, validateEnv } from './validate-env';

const BASE = { DATABASE_URL: 'postgres://localhost/db' };

function problemsOf(env: Record<string, string>): string[] {
  try {
    validateEnv(ServiceEnv, { ...BASE, ...env });
  } catch (error) {
    if (error instanceof InvalidEnvironmentError) return [...error.problems];
    throw error;
  }
  return [];
}

describe('ServiceEnv limits', () => {
  it('defaults to 50 requests per second, a burst of 100, 50 sockets per key and 2000 subscriptions', () => {
    expect(validateEnv(ServiceEnv, BASE)).toMatchObject({
      RATE_LIMIT_RPS: 50,
      RATE_LIMIT_BURST: 100,
      STREAM_MAX_CONNECTIONS_PER_KEY: 50,
      STREAM_MAX_SUBSCRIPTIONS: 2000,
    });
  });

  it('reads integers from the environment', () => {
    expect(
      validateEnv(ServiceEnv, {
        ...BASE,
        RATE_LIMIT_RPS: '20',
        RATE_LIMIT_BURST: '40',
        STREAM_MAX_CONNECTIONS_PER_KEY: '3',
        STREAM_MAX_SUBSCRIPTIONS: '10',
      }),
    ).toMatchObject({
      RATE_LIMIT_RPS: 20,
      RATE_LIMIT_BURST: 40,
      STREAM_MAX_CONNECTIONS_PER_KEY: 3,
      STREAM_MAX_SUBSCRIPTIONS: 10,
    });
  });

  it.each([
    ['RATE_LIMIT_RPS', '0'],
    ['RATE_LIMIT_RPS', 'fast'],
    ['RATE_LIMIT_RPS', '2.5'],
    ['RATE_LIMIT_BURST', '-1'],
    ['RATE_LIMIT_BURST', '1000001'],
    ['STREAM_MAX_CONNECTIONS_PER_KEY', '0'],
    ['STREAM_MAX_SUBSCRIPTIONS', 'many'],
  ])('fails fast on %s=%s, naming the variable but not the value', (name, value) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${name}: `));
    expect(problems[0]).not.toContain(`${value},`);
  });
});
