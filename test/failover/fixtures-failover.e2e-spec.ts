import { Client } from 'pg';
import { testCatalog } from '../fixtures-live/catalog-factory';
import { FakeLivescores, soccerState } from '../support/fake-livescores';
import { type ServiceProcess, startService } from '../support/service-process';
import { waitFor } from '../support/wait-for';
import { type IsolatedStack, isolatedStack } from '../streams/support/isolated-stack';
import { type Frame, StreamClient } from '../streams/support/stream-client';
import {
  expectPositionsKept,
  expectResumeFillsGaps,
  type FailoverRun,
  rejoinAfter,
  repeatLoss,
  replaceAfter,
} from './support/failover-run';
import { type GapSummary, IngestCluster, ingestActive } from './support/ingest-cluster';

/**
 * Two fixtures-live ingests and one api replica on real PostgreSQL and NATS,
 * the provider pushing a new score every 50 ms. The leader is killed (-9),
 * stopped (SIGTERM) or cut from PostgreSQL or NATS, five times each; the
 * standby takes over and the stream client sees the next score within 5 s
 * on the socket it had, `seq` only growing, one content per `seq`, and a
 * resume from before all takeovers brings every change.
 */
describe('fixtures-live ingest failover', () => {
  let stack: IsolatedStack;
  let provider: FakeLivescores;
  let cluster: IngestCluster;
  let api: ServiceProcess;
  let run: FailoverRun;
  let matchId: number;
  let goals = 0;
  let pusher: NodeJS.Timeout | undefined;
  const summaries: Record<string, Record<string, GapSummary>> = {};

  const isScore = (frame: Frame) =>
    (frame.op === 'snapshot' || frame.op === 'update') &&
    (frame.data as { match_id?: number } | undefined)?.match_id === matchId;
  const homeGoals = (frame: Frame) => (frame.data as { score?: { home: number } }).score?.home ?? 0;

  beforeAll(async () => {
    stack = await isolatedStack('failover_fixtures');
    const catalog = testCatalog();
    provider = new FakeLivescores();
    provider.setCatalog(catalog.sports);
    await provider.start();
    const env = { ...stack.env, FIXTURES_UPSTREAM_URL: provider.url, FIXTURES_CATALOG_POLL_MS: '1000' };
    cluster = new IngestCluster({
      service: 'fixtures-live',
      readyPath: '/v1/health/ready',
      leaseKey: 'fixtures-live',
      env,
    });
    await cluster.add();
    await cluster.leader(10_000);
    await cluster.add();
    api = await startService('fixtures-live', '/v1/health/ready', { ...env, ROLE: 'api' });
    matchId = await storedMatchId(stack.env.DATABASE_URL, catalog.ids.arsChe.id);
    const key = await stack.issueKey({ sports: 'soccer', scopes: 'live_scores_statistics' });
    const client = await StreamClient.open(`${api.url.replace('http', 'ws')}/v1/stream?key=${key}`);
    client.send({ action: 'subscribe', match_id: matchId });
    const statId = catalog.ids.arsChe.stat_id;
    pusher = setInterval(() => provider.push(statId, soccerState({ score: { home: ++goals, away: 0 } })), 50);
    await client.next((frame) => isScore(frame) && homeGoals(frame) > 0, {
      timeoutMs: 15_000,
      what: 'a first live state',
    });
    run = {
      cluster,
      client,
      summaries,
      changedAfterLoss: () => {
        const atLoss = goals;
        return (frame) => isScore(frame) && homeGoals(frame) > atLoss;
      },
    };
  }, 90_000);

  afterAll(async () => {
    clearInterval(pusher);
    run?.client.close();
    await api?.stop();
    await cluster?.stopAll();
    await provider?.stop();
    await stack?.drop();
    process.stdout.write(`fixtures-failover ${JSON.stringify(summaries)}\n`);
  }, 60_000);

  it('kill -9 of the leader: the standby takes over within 5 s', async () => {
    await repeatLoss(run, 'kill -9', (leader) => cluster.end(leader, 'SIGKILL'), replaceAfter(cluster));
  }, 180_000);

  it('SIGTERM of the leader: it hands over at once', async () => {
    await repeatLoss(run, 'SIGTERM', (leader) => cluster.end(leader, 'SIGTERM'), replaceAfter(cluster));
  }, 180_000);

  it('a leader cut from PostgreSQL is deposed and fenced while a standby reaches it', async () => {
    await repeatLoss(
      run,
      'PostgreSQL partition',
      (leader) => leader.database.cut(),
      rejoinAfter(cluster, async (old) => {
        expect(await ingestActive(old, 'livescores-live')).toBe(0);
        await old.database.restore();
      }),
    );
  }, 180_000);

  it('a leader cut from NATS fences itself and the standby takes over', async () => {
    await repeatLoss(
      run,
      'NATS partition',
      (leader) => leader.nats.cut(),
      rejoinAfter(cluster, (old) => old.nats.restore()),
    );
  }, 180_000);

  it('kept seq growing, one content per seq, and a resume fills every gap a death left', async () => {
    const live = expectPositionsKept(run.client, isScore);
    const key = await stack.issueKey({ sports: 'soccer', scopes: 'live_scores_statistics' });
    const resumed = await StreamClient.open(`${api.url.replace('http', 'ws')}/v1/stream?key=${key}`);
    try {
      await expectResumeFillsGaps(resumed, live, isScore, (resumeAfter) =>
        resumed.send({ action: 'subscribe', match_id: matchId, resume_after: resumeAfter }),
      );
    } finally {
      resumed.close();
    }
  });
});

async function storedMatchId(databaseUrl: string, providerId: string): Promise<number> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    let id = 0;
    await waitFor(
      async () => {
        const rows = await db.query<{ id: number }>(
          'SELECT id FROM fixtures.matches WHERE provider_id = $1',
          [providerId],
        );
        id = rows.rows[0]?.id ?? 0;
        return id > 0;
      },
      { timeoutMs: 20_000, what: 'the catalog to be stored' },
    );
    return id;
  } finally {
    await db.end();
  }
}
