import type { Frame, StreamClient } from '../../streams/support/stream-client';
import { waitFor } from '../../support/wait-for';
import {
  type GapSummary,
  type IngestCluster,
  type IngestNode,
  ingestActive,
  summarise,
} from './ingest-cluster';

/** Takeovers measured per way of losing the leader. */
export const REPETITIONS = 5;
/** The extensions' bound: the first change after a takeover reaches clients within this of the loss. */
export const TAKEOVER_MS = 5_000;

/** A snapshot or update frame of the watched match, with its change-log position. */
export interface PositionedFrame extends Frame {
  seq: number;
  prev_seq: number | null;
}

export interface FailoverRun {
  readonly cluster: IngestCluster;
  readonly client: StreamClient;
  /** Called at the moment of the loss: tells frames carrying an upstream change made after it. */
  readonly changedAfterLoss: () => (frame: Frame) => boolean;
  /** Takeover and client gap figures per scenario, for the summary line. */
  readonly summaries: Record<string, Record<string, GapSummary>>;
}

/**
 * Loses the leader `REPETITIONS` times and measures, from each loss, when
 * another process reports itself active (the takeover) and when the client
 * gets the first change made after the loss (the gap it sees; a leader cut
 * from PostgreSQL keeps publishing until it hands over). `after` repairs
 * the cluster for the next round.
 */
export async function repeatLoss(
  run: FailoverRun,
  label: string,
  lose: (leader: IngestNode) => Promise<void>,
  after: (old: IngestNode) => Promise<void>,
): Promise<void> {
  const gaps: number[] = [];
  const takeovers: number[] = [];
  for (let i = 0; i < REPETITIONS; i += 1) {
    const leader = await run.cluster.leader(10_000);
    const isChange = run.changedAfterLoss();
    const lostAt = Date.now();
    await lose(leader);
    await run.cluster.leader(10_000, leader);
    takeovers.push(Date.now() - lostAt);
    const frame = await run.client.next(isChange, {
      timeoutMs: 15_000,
      what: 'a change made after the loss',
    });
    gaps.push(run.client.receivedAt[run.client.frames.indexOf(frame)] - lostAt);
    await after(leader);
  }
  run.summaries[label] = { takeoverMs: summarise(takeovers), clientGapMs: summarise(gaps) };
  expect(Math.max(...takeovers)).toBeLessThanOrEqual(TAKEOVER_MS);
  expect(Math.max(...gaps)).toBeLessThanOrEqual(TAKEOVER_MS);
  expect(run.client.closeCode).toBeUndefined();
}

/**
 * The four ways of losing the leader, five rounds each, as `it` blocks:
 * kill -9 and SIGTERM (a new standby joins after each), and a cut from
 * PostgreSQL or NATS (the cut process must stand by once repaired).
 * `activeFeed` is a `feed` label its `ingest_active` reports under.
 */
export function itTakesOver(run: () => FailoverRun, activeFeed: string): void {
  it('kill -9 of the leader: the standby takes over within 5 s', async () => {
    const { cluster } = run();
    await repeatLoss(run(), 'kill -9', (leader) => cluster.end(leader, 'SIGKILL'), replaceAfter(cluster));
  }, 180_000);

  it('SIGTERM of the leader: it hands over at once', async () => {
    const { cluster } = run();
    await repeatLoss(run(), 'SIGTERM', (leader) => cluster.end(leader, 'SIGTERM'), replaceAfter(cluster));
  }, 180_000);

  it('a leader cut from PostgreSQL is deposed and fenced while a standby reaches it', async () => {
    const { cluster } = run();
    await repeatLoss(
      run(),
      'PostgreSQL partition',
      (leader) => leader.database.cut(),
      rejoinAfter(cluster, async (old) => {
        expect(await ingestActive(old, activeFeed)).toBe(0);
        await old.database.restore();
      }),
    );
  }, 180_000);

  it('a leader cut from NATS fences itself and the standby takes over', async () => {
    const { cluster } = run();
    await repeatLoss(
      run(),
      'NATS partition',
      (leader) => leader.nats.cut(),
      rejoinAfter(cluster, (old) => old.nats.restore()),
    );
  }, 180_000);
}

/** The leader is stopped for good; a new standby joins for the next round. */
export function replaceAfter(cluster: IngestCluster): () => Promise<void> {
  return async () => void (await cluster.add());
}

/** The cut leader must report itself a standby once `restore` gave it its dependency back. */
export function rejoinAfter(
  cluster: IngestCluster,
  restore: (old: IngestNode) => Promise<void>,
): (old: IngestNode) => Promise<void> {
  return async (old) => {
    await restore(old);
    await waitFor(async () => (await cluster.role(old)) === 'standby', {
      timeoutMs: 10_000,
      what: 'the cut leader to stand by',
    });
  };
}

/**
 * What every takeover must have kept: `seq` growing on the socket and one
 * content per `seq`. Returns the frames of the match, in order.
 */
export function expectPositionsKept(
  client: StreamClient,
  isData: (frame: Frame) => boolean,
): PositionedFrame[] {
  const frames: PositionedFrame[] = [];
  const bySeq = new Map<number, string>();
  client.frames.forEach((frame, index) => {
    if (!isData(frame)) return;
    const positioned = frame as PositionedFrame;
    const seen = bySeq.get(positioned.seq);
    if (seen !== undefined) expect(client.texts[index]).toBe(seen);
    bySeq.set(positioned.seq, client.texts[index]);
    frames.push(positioned);
  });
  for (let i = 1; i < frames.length; i += 1) expect(frames[i].seq).toBeGreaterThan(frames[i - 1].seq);
  expect(frames.length).toBeGreaterThan(4 * REPETITIONS);
  return frames;
}

/**
 * A leader killed between appending a change and publishing it leaves a
 * live gap (`prev_seq` names a change the client never got). A client that
 * resumes from the first frame's position must get every later change as an
 * `update`, each naming the one before, including every frame seen live.
 */
export async function expectResumeFillsGaps(
  resumed: StreamClient,
  live: readonly PositionedFrame[],
  isData: (frame: Frame) => boolean,
  subscribe: (resumeAfter: number) => void,
): Promise<void> {
  const first = live[0].seq;
  const last = live[live.length - 1].seq;
  subscribe(first);
  await resumed.next((frame) => isData(frame) && (frame as PositionedFrame).seq >= last, {
    timeoutMs: 10_000,
    what: 'the replay to reach the last live frame',
  });
  const replayed = (resumed.frames.filter(isData) as PositionedFrame[]).filter((frame) => frame.seq <= last);
  expect(replayed.every((frame) => frame.type === 'update' || frame.op === 'update')).toBe(true);
  expect(replayed[0].prev_seq).toBe(first);
  for (let i = 1; i < replayed.length; i += 1) expect(replayed[i].prev_seq).toBe(replayed[i - 1].seq);
  const replayedSeqs = new Set(replayed.map((frame) => frame.seq));
  expect(live.slice(1).filter((frame) => !replayedSeqs.has(frame.seq))).toEqual([]);
}
