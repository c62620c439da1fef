import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import { httpMetricsMiddleware } from './http-metrics.middleware';
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

  it('labels HTTP durations by route pattern, never by raw path', async () => {
    const metrics = new Metrics();
    const middleware = httpMetricsMiddleware(metrics);
    const finish = (route: unknown, status: number): void => {
      const res = Object.assign(new EventEmitter(), { statusCode: status }) as unknown as Response;
      const req = { method: 'GET', baseUrl: '', route } as unknown as Request;
      middleware(req, res, (() => undefined) as NextFunction);
      (res as unknown as EventEmitter).emit('finish');
    };
    finish({ path: '/v1/matches/:match_id' }, 200);
    finish(undefined, 404);
    finish({ path: '{/*splat}' }, 404);
    const text = await metrics.render();
    expect(text).toContain('route="/v1/matches/:match_id",status="200"');
    expect(text).toContain(
      'http_request_duration_seconds_count{method="GET",route="unmatched",status="404"} 2',
    );
  });
});
