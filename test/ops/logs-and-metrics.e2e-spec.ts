import WebSocket from 'ws';
import { issueTestKey } from '../support/keys-cli';
import { startService, type ServiceProcess } from '../support/service-process';

interface LogLine {
  msg?: string;
  reqId?: string;
  req?: { id?: string; url?: string };
}

function jsonLines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

function handshake(url: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url);
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('error', () => resolve(0));
  });
}

/**
 * What operators read: JSON logs with a request id on every request line and
 * no key anywhere, and a Prometheus endpoint without keys or unbounded labels.
 */
describe.each([
  ['fixtures-live', '/v1/health/ready', '/v1/sports', '/v1/stream', '/v1/health'],
  ['odds-passthrough', '/readyz', '/v1/book/sports', '/v1/book/data', '/healthz'],
] as const)('%s logs and metrics', (name, readyPath, apiPath, streamPath, healthPath) => {
  let service: ServiceProcess;
  let key: string;
  const wrongKey = 'sk_thisKeyDoesNotExistButMustNotBeLoggedEither123';

  beforeAll(async () => {
    ({ key } = await issueTestKey({ scopes: 'fixtures,live_scores_statistics,odds', grants: ['book='] }));
    service = await startService(name, readyPath, { ROLE: 'api', LOG_LEVEL: 'info' });
  });

  afterAll(() => service?.stop());

  it('never writes a key, and tags every request line with its request id', async () => {
    const base = service.url;
    await fetch(`${base}${apiPath}`, { headers: { 'X-API-Key': key } });
    await fetch(`${base}${apiPath}?key=${key}`);
    await fetch(`${base}${apiPath}?key=${wrongKey}`);
    await fetch(`${base}${apiPath}`, { headers: { 'X-API-Key': wrongKey, Authorization: `Bearer ${key}` } });
    await fetch(`${base}/nowhere?key=${key}`);
    expect(await handshake(`${base.replace('http', 'ws')}${streamPath}?key=${key}`)).toBe(101);
    expect(await handshake(`${base.replace('http', 'ws')}${streamPath}?key=${wrongKey}`)).toBe(401);
    await fetch(`${base}${healthPath}`);
    await fetch(`${base}/metrics`);
    await service.stop();

    const output = service.output();
    expect(output).not.toContain(key);
    expect(output).not.toContain(wrongKey);
    const requestLines = jsonLines(output).filter((line) => line.req !== undefined);
    expect(requestLines.length).toBeGreaterThanOrEqual(4);
    for (const line of requestLines) expect(line.req?.id ?? line.reqId).toBeTruthy();
    const loggedUrls = requestLines.map((line) => line.req?.url ?? '');
    expect(loggedUrls.some((url) => url.includes('key=[redacted]'))).toBe(true);
    expect(loggedUrls.filter((url) => url.startsWith(healthPath) || url.startsWith('/metrics'))).toEqual([]);
  });
});

describe.each([
  ['fixtures-live', '/v1/health/ready', '/v1/sports'],
  ['odds-passthrough', '/readyz', '/v1/book/sports'],
] as const)('%s /metrics', (name, readyPath, apiPath) => {
  let service: ServiceProcess;
  let key: string;

  beforeAll(async () => {
    ({ key } = await issueTestKey({ scopes: 'fixtures,odds', grants: ['book='] }));
    service = await startService(name, readyPath, { ROLE: 'api' });
  });

  afterAll(() => service?.stop());

  it('serves Prometheus text with the shared collectors and bounded labels', async () => {
    await fetch(`${service.url}${apiPath}`, { headers: { 'X-API-Key': key } });
    await fetch(`${service.url}${apiPath}`, { headers: { 'X-API-Key': key } });
    await fetch(`${service.url}/matches/12345/nothing?key=${key}`);
    const response = await fetch(`${service.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toContain(
      `http_request_duration_seconds_count{method="GET",route="${apiPath}",status="200"} 2`,
    );
    expect(text).toContain('route="unmatched"');
    // The id in the unmatched path must not become a label value. A sample's value may hold the
    // same digits (a heap of 127123456 bytes did), so only the label sets are searched.
    const labelSets = text.match(/\{[^}\n]*\}/g) ?? [];
    expect(labelSets.length).toBeGreaterThan(0);
    expect(labelSets.filter((labels) => labels.includes('12345'))).toEqual([]);
    expect(text).not.toContain(key);
    expect(text).toMatch(/nats_connection_state\{state="connected"\} 1/);
    expect(text).toMatch(/auth_cache_hits_total [1-9]/);
    expect(text).toMatch(/auth_cache_misses_total [1-9]/);
    expect(text).toContain('process_resident_memory_bytes');
    expect(text).toContain('ws_connections_open');
    expect(text).toContain('ws_frames_sent_total');
    expect(text).toContain('ws_frames_conflated_total');
    expect(text).toContain('ws_closed_slow_total');
    expect(text).toContain('upstream_poll_duration_seconds');
    expect(text).toContain('upstream_errors_total');
    expect(text).toContain('upstream_last_success_timestamp_seconds');
    expect(text).toContain('feed_healthy');
    if (name === 'odds-passthrough') {
      // An api replica reports the book's feed health as it sees it: no ingest runs here, so unhealthy.
      expect(text).toMatch(/feed_healthy\{feed="book"\} 0/);
    }
  });
});
