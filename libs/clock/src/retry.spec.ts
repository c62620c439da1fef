import { retryUntilDone } from './retry';

const noWait = () => Promise.resolve();

describe('retryUntilDone', () => {
  it('retries a failing task with growing delays until it succeeds, reporting each failure', async () => {
    let calls = 0;
    const delays: number[] = [];
    const result = await retryUntilDone(
      () => (++calls < 4 ? Promise.reject(new Error(`down ${calls}`)) : Promise.resolve('up')),
      {
        onFailure: (_error, delay) => delays.push(delay),
        backoff: { initialMs: 100, maxMs: 250, jitter: 0 },
        wait: noWait,
      },
    );
    expect(result).toBe('up');
    expect(delays).toEqual([100, 200, 250]);
  });

  it('gives up once stopped, without another attempt or report', async () => {
    let stopped = false;
    let calls = 0;
    const failures: unknown[] = [];
    const result = await retryUntilDone(
      () => {
        calls += 1;
        stopped = calls === 2;
        return Promise.reject(new Error('down'));
      },
      { stopped: () => stopped, onFailure: (error) => failures.push(error), wait: noWait },
    );
    expect({ result, calls, failures: failures.length }).toEqual({
      result: undefined,
      calls: 2,
      failures: 1,
    });
  });
});
