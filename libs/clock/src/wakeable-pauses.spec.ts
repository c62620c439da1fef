import { WakeablePauses } from './wakeable-pauses';

describe('WakeablePauses', () => {
  it('ends every pending pause at once when woken, and a pause on its own after its time', async () => {
    jest.useFakeTimers();
    try {
      const pauses = new WakeablePauses();
      const ended: string[] = [];
      void pauses.pause(60_000).then(() => ended.push('long'));
      void pauses.pause(30_000).then(() => ended.push('shorter'));
      pauses.wakeAll();
      await Promise.resolve();
      expect(ended.sort()).toEqual(['long', 'shorter']);
      void pauses.pause(1_000).then(() => ended.push('timed'));
      jest.advanceTimersByTime(1_000);
      await Promise.resolve();
      expect(ended).toContain('timed');
    } finally {
      jest.useRealTimers();
    }
  });
});
