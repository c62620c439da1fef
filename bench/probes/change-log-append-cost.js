// Client CPU of change-log appends as the ingests make them (ADR 012), against a throwaway
// JetStream stream under a subject prefix of the script's own:
//
// - one append: `ChangeLog.append` with a message id, the expected last sequence and the
//   predecessor header, 100 chains of appends in parallel (one per match), each waiting for its
//   acknowledgement before the next;
// - one odds poll's appends: `BookChangePublisher.publish` of 1,000 frames of 600 bytes, one per
//   match, as the big book's 1% poll makes them (appended, then batched out to the replicas),
//   after each match's first append of the run, so every tail is known as in a running ingest.
//
// Run from the repository root:
//
//   npm run bench -- --only=append-cost   (node bench/probes/change-log-append-cost.js [appends per chain=100] [polls=100])
//
// BENCH_PRODUCT_ROOT measures the sources of another checkout (with node_modules), for
// before/after figures; NATS_URL defaults to nats://127.0.0.1:4222.
'use strict';

require('../support/ts-sources');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { percentile } = require('../support/bench-env');
const { reportFigures } = require('../support/probe-figures');

const root = process.env.BENCH_PRODUCT_ROOT ?? path.join(__dirname, '..', '..');
const { ChangeLog } = require(path.join(root, 'libs/messaging/src/change-log'));
const { NatsLink } = require(path.join(root, 'libs/messaging/src/nats-link'));
const { NatsEventClient } = require(path.join(root, 'libs/messaging/src/nats-event.client'));
const { BookChangePublisher } = require(
  path.join(root, 'apps/odds-passthrough/src/ingest/book-change-publisher'),
);

const CHAINS = 100;
const PER_CHAIN = Number(process.argv[2] ?? 100);
const ROUNDS = 4;
const POLLS = Number(process.argv[3] ?? 100);
const POLL_MATCHES = 1000;

async function main() {
  const prefix = `bench_append_${randomBytes(3).toString('hex')}`;
  const link = new NatsLink({
    servers: [process.env.NATS_URL ?? 'nats://127.0.0.1:4222'],
    name: prefix,
    subjectPrefix: prefix,
  });
  if (!(await link.waitUntilConnected(5000))) throw new Error('NATS did not answer');
  const log = new ChangeLog(link, { name: 'APPEND_COST', subjects: 'log.>', retentionMs: 120_000 });
  await log.ensure();
  const data = Buffer.alloc(600, 'x');
  const last = new Map();
  let id = 0;
  const chain = async (match, count) => {
    for (let i = 0; i < count; i++) {
      const newest = last.get(match) ?? null;
      const seq = await log.append(
        `log.1.${match}`,
        data,
        { expectedLastSeq: newest ?? 0, prevSeq: newest },
        `run:${++id}`,
      );
      last.set(match, seq);
    }
  };
  const round = async (count) => {
    const before = process.cpuUsage();
    await Promise.all(Array.from({ length: CHAINS }, (_, match) => chain(match, count)));
    const used = process.cpuUsage(before);
    return (used.user + used.system) / (CHAINS * count);
  };
  try {
    await round(20);
    const figures = [];
    for (let r = 0; r < ROUNDS; r++) figures.push(await round(PER_CHAIN));
    console.log(
      `change-log append: ${figures.map((us) => us.toFixed(1)).join(', ')} µs of client CPU per append (${ROUNDS} rounds of ${CHAINS} × ${PER_CHAIN})`,
    );
    const poll = await pollFigures(link);
    console.log(`odds poll of ${POLL_MATCHES} changes: ${poll.text}`);
    reportFigures([
      { figure: 'client CPU per change-log append', unit: 'µs', samples: figures },
      { figure: `client CPU per odds poll of ${POLL_MATCHES} appends`, unit: 'ms', samples: poll.ms },
    ]);
  } finally {
    const manager = await link.jetStreamManager();
    await manager.streams.delete(log.streamName);
    await link.onApplicationShutdown();
  }
}

/** Client CPU of `BookChangePublisher.publish`, one poll at a time: every poll's, and its median, mean and p90. */
async function pollFigures(link) {
  const log = new ChangeLog(link, { name: 'POLL_COST', subjects: 'odds.bench.log.>', retentionMs: 120_000 });
  const quiet = () => undefined;
  const logger = { log: quiet, warn: (message) => console.warn(message), error: quiet };
  const publisher = new BookChangePublisher(
    'bench',
    log,
    new NatsEventClient(link),
    logger,
    () => Promise.resolve(0),
    () => true,
  );
  publisher.start();
  const frame = JSON.stringify({ pad: 'x'.repeat(590) });
  const frames = Array.from({ length: POLL_MATCHES }, (_, i) => ({ sportId: 1, matchId: i + 1, frame }));
  const poll = async () => {
    const before = process.cpuUsage();
    const positions = await publisher.publish(frames);
    const used = process.cpuUsage(before);
    if (positions.length !== POLL_MATCHES) throw new Error(`${positions.length} of ${POLL_MATCHES} appended`);
    return (used.user + used.system) / 1000;
  };
  try {
    for (let i = 0; i < 5; i++) await poll();
    const ms = [];
    for (let i = 0; i < POLLS; i++) ms.push(await poll());
    ms.sort((a, b) => a - b);
    const mean = ms.reduce((sum, x) => sum + x, 0) / ms.length;
    const at = (p) => percentile(ms, p).toFixed(1);
    return {
      ms,
      text: `median ${at(50)}, mean ${mean.toFixed(1)}, p90 ${at(90)} ms of client CPU per poll (${POLLS} polls)`,
    };
  } finally {
    publisher.stop();
    const manager = await link.jetStreamManager();
    await manager.streams.delete(log.streamName);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
