import { testCatalog } from '../fixtures-live/catalog-factory';
import { FakeLivescores, soccerState } from '../support/fake-livescores';
import { type ServiceProcess, startService } from '../support/service-process';
import { storedId } from '../support/stored-id';
import { type IsolatedStack, isolatedStack } from '../streams/support/isolated-stack';
import { type Frame, StreamClient } from '../streams/support/stream-client';
import {
  expectPositionsKept,
  expectResumeFillsGaps,
  type FailoverRun,
  itTakesOver,
} from './support/failover-run';
import { type GapSummary, IngestCluster } from './support/ingest-cluster';

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
    matchId = await storedId(
      stack.env.DATABASE_URL,
      'SELECT id FROM fixtures.matches WHERE provider_id = $1',
      [catalog.ids.arsChe.id],
      'the catalog to be stored',
    );
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

  itTakesOver(() => run, 'livescores-live');

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
