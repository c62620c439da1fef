import { Client } from 'pg';
import WebSocket from 'ws';
import { issueTestKey } from '../support/keys-cli';
import { startService, type ServiceProcess } from '../support/service-process';
import { runDatabaseUrl } from '../support/test-env';
import { waitFor } from '../support/wait-for';

/**
 * SIGTERM as Kubernetes sends it, with a stream open and a request in flight:
 * the stream is closed with 1001 (go elsewhere), the request still gets its
 * answer, and the process is gone within 10 s.
 */
describe('graceful shutdown on SIGTERM', () => {
  let db: Client;
  let service: ServiceProcess | undefined;
  let key: string;
  let sportId: number;

  beforeAll(async () => {
    db = new Client({ connectionString: runDatabaseUrl() });
    await db.connect();
    const sport = await db.query<{ id: number }>(
      `INSERT INTO fixtures.sports (provider_key, name) VALUES ('shutdown-sport', 'Shutdown Sport')
       ON CONFLICT (provider_key) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
    );
    sportId = sport.rows[0].id;
    ({ key } = await issueTestKey({
      sports: String(sportId),
      scopes: 'fixtures,live_scores_statistics,odds',
      grants: ['book=1'],
    }));
  });

  afterAll(async () => {
    await service?.stop();
    await db.end();
  });

  it('fixtures-live: 1001 to streams, in-flight request answered, exit within 10 s', async () => {
    service = await startService('fixtures-live', '/v1/health/ready', { ROLE: 'api' });
    const base = service.url;
    // Warm the key cache so the held request waits on the leagues table only.
    expect((await fetch(`${base}/v1/sports`, { headers: { 'X-API-Key': key } })).status).toBe(200);

    const socket = new WebSocket(`${base.replace('http', 'ws')}/v1/stream?key=${key}`);
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });

    const locker = new Client({ connectionString: runDatabaseUrl() });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE fixtures.leagues IN ACCESS EXCLUSIVE MODE');
    const inFlight = fetch(`${base}/v1/leagues?sport=${sportId}`, { headers: { 'X-API-Key': key } });
    await waitFor(
      async () => {
        const waiting = await db.query(
          `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%leagues%'`,
        );
        return (waiting.rowCount ?? 0) > 0;
      },
      { timeoutMs: 10_000, intervalMs: 50, what: 'the request to wait on the lock' },
    );

    const signalledAt = Date.now();
    service.child.kill('SIGTERM');
    expect(await closed).toBe(1001);
    await waitFor(
      async () => {
        try {
          return (await fetch(`${base}/v1/health/ready`)).status === 503;
        } catch {
          return true;
        }
      },
      { timeoutMs: 5_000, what: 'readiness to drop' },
    );
    await locker.query('ROLLBACK');
    await locker.end();

    const response = await inFlight;
    expect(response.status).toBe(200);
    await service.exited;
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
  }, 40_000);

  it('odds-passthrough: 1001 to streams and exit within 10 s', async () => {
    service = await startService('odds-passthrough', '/readyz', { ROLE: 'api' });
    const socket = new WebSocket(`${service.url.replace('http', 'ws')}/v1/book/data?key=${key}`);
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const signalledAt = Date.now();
    service.child.kill('SIGTERM');
    expect(await closed).toBe(1001);
    await service.exited;
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
  }, 40_000);

  it.each([
    ['fixtures-live', '/v1/health/ready', '/v1/stream'],
    ['odds-passthrough', '/readyz', '/v1/book/data'],
  ] as const)(
    '%s: with five idle stream clients, exits with status 0 in under 3 s',
    async (name, readyPath, streamPath) => {
      service = await startService(name, readyPath, { ROLE: 'all' });
      const sockets = await Promise.all(
        Array.from({ length: 5 }, async () => {
          const socket = new WebSocket(`${service!.url.replace('http', 'ws')}${streamPath}?key=${key}`);
          const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
          await new Promise<void>((resolve, reject) => {
            socket.once('open', () => resolve());
            socket.once('error', reject);
          });
          // Wrapped: an async function returning the promise itself would wait for the close.
          return { closed };
        }),
      );
      const signalledAt = Date.now();
      service.child.kill('SIGTERM');
      const exit = await service.exited;
      const took = Date.now() - signalledAt;
      expect(await Promise.all(sockets.map((socket) => socket.closed))).toEqual([
        1001, 1001, 1001, 1001, 1001,
      ]);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(took).toBeLessThan(3_000);
    },
    40_000,
  );
});
