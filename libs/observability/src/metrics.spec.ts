import { Metrics } from './metrics';

describe('Metrics', () => {
  it('reads observed gauges and counters at scrape time', async () => {
    const metrics = new Metrics();
    let opened = 3;
    let sent = 10;
    metrics.observe('ws_open', 'open sockets', () => opened);
    metrics.observe('feed', 'feed health', () => [{ labels: { book: 'book' }, value: 1 }], ['book']);
    metrics.observeCounter('frames_total', 'frames', () => sent);
    expect(await metrics.render()).toMatch(/ws_open 3\n/);
    opened = 1;
    sent = 25;
    const text = await metrics.render();
    expect(text).toMatch(/ws_open 1\n/);
    expect(text).toMatch(/feed\{book="book"\} 1\n/);
    expect(text).toMatch(/frames_total 25\n/);
    expect(text).toMatch(/process_cpu_user_seconds_total/);
  });

  it('reports the event loop busy share since the previous scrape, between 0 and 1', async () => {
    const metrics = new Metrics();
    await metrics.render();
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        const until = performance.now() + 30;
        while (performance.now() < until);
        resolve();
      }),
    );
    const text = await metrics.render();
    const busy = Number(/^nodejs_eventloop_utilization_ratio (\S+)$/m.exec(text)?.[1]);
    expect(busy).toBeGreaterThan(0.5);
    expect(busy).toBeLessThanOrEqual(1);
  });
});
