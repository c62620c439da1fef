// Client CPU of one change-log append as the ingests make it (ADR 012): `ChangeLog.append` with a
// message id, the expected last sequence and the predecessor header, 100 chains of appends in
// parallel (one per match), each waiting for its acknowledgement before the next. The log is a
// throwaway JetStream stream under a subject prefix of the script's own. Run from the repository
// root:
//
//   node bench/change-log-append-cost.js [appends per chain=100]
//
// BENCH_PRODUCT_ROOT measures the `libs/messaging` sources of another checkout (with
// node_modules), for before/after figures; NATS_URL defaults to nats://127.0.0.1:4222.
'use strict';

require('./support/ts-sources');
const path = require('node:path');
const { randomBytes } = require('node:crypto');

const root = process.env.BENCH_PRODUCT_ROOT ?? path.join(__dirname, '..');
const { ChangeLog } = require(path.join(root, 'libs/messaging/src/change-log'));
const { NatsLink } = require(path.join(root, 'libs/messaging/src/nats-link'));

const CHAINS = 100;
const PER_CHAIN = Number(process.argv[2] ?? 100);
const ROUNDS = 4;

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
  } finally {
    const manager = await link.jetStreamManager();
    await manager.streams.delete(log.streamName);
    await link.onApplicationShutdown();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
