import { timersLeftPending } from '../../../test/support/pending-timers';
import { withDeadline } from './deadline';

describe('withDeadline', () => {
  it('aborts the signal with a TimeoutError once the deadline passes', async () => {
    const reason = await withDeadline(
      20,
      (signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason))),
    );
    expect(reason).toMatchObject({
      name: 'TimeoutError',
      message: 'The operation was aborted due to timeout',
    });
  });

  it('answers what the work answers, and leaves no timer behind, whether it resolves or throws', async () => {
    const pending = await timersLeftPending(60_000, async () => {
      await expect(withDeadline(60_000, () => Promise.resolve(7))).resolves.toBe(7);
      await expect(withDeadline(60_000, () => Promise.reject(new Error('refused')))).rejects.toThrow(
        'refused',
      );
    });
    expect(pending).toBe(0);
  });
});
