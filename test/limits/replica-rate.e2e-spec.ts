import { Agent, get } from 'node:http';
import { issueTestKey } from '../support/keys-cli';
import { startService, type ServiceProcess } from '../support/service-process';
import { waitFor } from '../support/wait-for';

const READY = '/v1/health/ready';
const PATH = '/v1/sports';
const RPS = 20;
const BURST = 20;
const HAMMER_MS = 3_000;
/** Requests in flight at once, spread over the replicas in turn. */
const CLIENTS = 12;

/** One key's REST rate holds across three api replicas of fixtures-live. */
describe('a key rate across three replicas', () => {
  const replicas: ServiceProcess[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });

  beforeAll(async () => {
    replicas.push(
      ...(await Promise.all([1, 2, 3].map(() => startService('fixtures-live', READY, { ROLE: 'api' })))),
    );
  }, 90_000);

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
    agent.destroy();
  });

  function status(replica: ServiceProcess, key: string): Promise<number> {
    return new Promise((resolve, reject) => {
      get(`${replica.url}${PATH}`, { headers: { 'x-api-key': key }, agent }, (answer) => {
        answer.resume();
        answer.once('end', () => resolve(answer.statusCode ?? 0));
        answer.once('error', reject);
      }).once('error', reject);
    });
  }

  it('each replica hears what the others admit', async () => {
    for (const [index, spender] of replicas.entries()) {
      const { key } = await issueTestKey({ scopes: 'fixtures', rate: '1/3' });
      for (let i = 0; i < 3; i++) expect(await status(spender, key)).toBe(200);
      for (const other of replicas.filter((_, at) => at !== index)) {
        await waitFor(async () => (await status(other, key)) === 429, {
          timeoutMs: 2_000,
          what: `replica ${index + 1}'s use to reach another replica`,
        });
      }
    }
  }, 60_000);

  it(`admits within 20% of ${RPS}/s with a burst of ${BURST} while a client hammers all three`, async () => {
    const { key } = await issueTestKey({ scopes: 'fixtures', rate: `${RPS}/${BURST}` });
    const counts = new Map<number, number>();
    let next = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (Date.now() - started < HAMMER_MS) {
          const replica = replicas[next++ % replicas.length];
          const code = await status(replica, key);
          counts.set(code, (counts.get(code) ?? 0) + 1);
        }
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    const accepted = counts.get(200) ?? 0;
    const allowed = BURST + RPS * seconds;
    // The figure the report quotes.
    process.stdout.write(
      `three replicas: ${accepted} accepted of ${allowed.toFixed(1)} allowed in ${seconds.toFixed(2)} s ` +
        `(${((accepted / allowed) * 100).toFixed(1)}%), ${counts.get(429) ?? 0} refused\n`,
    );
    expect([...counts.keys()].sort()).toEqual([200, 429]);
    expect(accepted).toBeGreaterThanOrEqual(allowed * 0.8);
    expect(accepted).toBeLessThanOrEqual(allowed * 1.2);
  }, 30_000);
});
