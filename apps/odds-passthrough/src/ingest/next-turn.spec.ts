import { readFile } from 'node:fs';
import { nextTurn } from './next-turn';

function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** Runs `body` inside an I/O callback, where the loop goes on to its check phase before its timers. */
function fromIoCallback<T>(body: () => Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    readFile(__filename, () => {
      body().then(resolve, reject);
    });
  });
}

describe('nextTurn', () => {
  it('lets a due timer run first when called from an I/O callback', async () => {
    const fired = await fromIoCallback(async () => {
      let timerRan = false;
      setTimeout(() => (timerRan = true), 0);
      spin(5);
      await nextTurn();
      return timerRan;
    });
    expect(fired).toBe(true);
  });

  it('lets a due timer run first when called from a timer', async () => {
    const fired = await new Promise<boolean>((resolve) => {
      setTimeout(() => {
        let timerRan = false;
        setTimeout(() => (timerRan = true), 0);
        spin(5);
        void nextTurn().then(() => resolve(timerRan));
      }, 0);
    });
    expect(fired).toBe(true);
  });
});
