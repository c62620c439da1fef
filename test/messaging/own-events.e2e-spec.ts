import { randomBytes } from 'node:crypto';
import type { NatsContext } from '@nestjs/microservices';
import { type MsgHdrs, headers as natsHeaders } from 'nats';
import { NatsEventClient, NatsEventServer, NatsLink } from '@app/messaging';
import { NATS_URL, runSubjectPrefix } from '../support/test-env';
import { freePort } from '../support/service-process';
import { waitFor } from '../support/wait-for';

interface Heard {
  readonly subject: string;
  readonly body: string;
  readonly seq: string | undefined;
}

/** One process's messaging: its link, its event server with one handler, its client. */
async function startProcess(name: string, prefix: string, pattern: string, handlerMs = 0) {
  const link = new NatsLink({ servers: [NATS_URL], name, subjectPrefix: prefix });
  const heard: Heard[] = [];
  const server = new NatsEventServer(link);
  server.addHandler(
    pattern,
    (data: Uint8Array, context: NatsContext) => {
      for (const started = performance.now(); performance.now() - started < handlerMs;);
      heard.push({
        subject: context.getSubject(),
        body: Buffer.from(data).toString(),
        seq: (context.getHeaders() as MsgHdrs | undefined)?.get('Seq') || undefined,
      });
      return Promise.resolve();
    },
    true,
  );
  await server.listen(() => undefined);
  const ready = new Promise<void>((resolve) => link.onSubscribed(resolve));
  if (!(await link.waitUntilConnected(5000))) throw new Error('NATS did not answer');
  await ready;
  return { link, server, heard, client: new NatsEventClient(link) };
}

/**
 * A process hears what it publishes itself through its own handlers, once:
 * the server does not echo its messages back and they are handed over in the
 * process; every other process hears them from NATS.
 */
describe('events a process publishes itself', () => {
  const prefix = `${runSubjectPrefix()}_own${randomBytes(3).toString('hex')}`;
  let processes: Array<Awaited<ReturnType<typeof startProcess>>> = [];

  afterEach(async () => {
    for (const process of processes) {
      await process.server.close();
      await process.link.onApplicationShutdown();
    }
    processes = [];
  });

  it('reach its own handlers once, with the subject and headers NATS would give, and reach the others', async () => {
    const own = await startProcess('own', prefix, 'fixtures.live.>');
    const other = await startProcess('other', prefix, 'fixtures.live.>');
    const marker = await startProcess('marker', prefix, 'unrelated.subject');
    processes = [own, other, marker];

    const meta = natsHeaders();
    meta.set('Seq', '41');
    own.client.emitFrame('fixtures.live.1.7', Buffer.from('{"n":1}'), meta);
    own.client.emitFrame('fixtures.live.1.8', Buffer.from('{"n":2}'));
    await waitFor(() => other.heard.length === 2, {
      timeoutMs: 5000,
      what: 'the other process to hear both',
    });
    // NATS delivers to a connection in order: once `own` hears a later message of another
    // connection, an echo of its own two (had the server sent one) would have arrived before it.
    marker.client.emitFrame('fixtures.live.9.9', Buffer.from('{"n":3}'));
    await waitFor(() => own.heard.some((heard) => heard.body === '{"n":3}'), {
      timeoutMs: 5000,
      what: 'the marker to reach the publishing process',
    });

    const expected = [
      { subject: `${prefix}.fixtures.live.1.7`, body: '{"n":1}', seq: '41' },
      { subject: `${prefix}.fixtures.live.1.8`, body: '{"n":2}', seq: undefined },
      { subject: `${prefix}.fixtures.live.9.9`, body: '{"n":3}', seq: undefined },
    ];
    expect(own.heard).toEqual(expected);
    await waitFor(() => other.heard.length === 3, { timeoutMs: 5000, what: 'the other process to hear all' });
    expect(other.heard).toEqual(expected);
    expect(marker.heard).toEqual([]);
  });

  it('drop a frame the server refuses without failing the caller, and later frames go out', async () => {
    const own = await startProcess('own', prefix, 'fixtures.live.>');
    const other = await startProcess('other', prefix, 'fixtures.live.>');
    processes = [own, other];

    let maxPayload = 0;
    own.link.onConnection((connection) => (maxPayload = connection.info?.max_payload ?? 0))();
    expect(maxPayload).toBeGreaterThan(0);
    const overLimit = Buffer.alloc(maxPayload + 1, 'x');
    expect(() => own.client.emitFrame('fixtures.live.1.1', overLimit)).not.toThrow();
    own.client.emitFrame('fixtures.live.1.2', Buffer.from('{"n":2}'));
    await waitFor(() => other.heard.length === 1, { timeoutMs: 5000, what: 'the later frame' });
    expect(other.heard.map((heard) => heard.body)).toEqual(['{"n":2}']);
    expect(own.heard.map((heard) => heard.body)).toEqual(['{"n":2}']);
  });

  it('hand a burst to its own handlers in short turns of the event loop, so timers run in between', async () => {
    // 30 messages whose handling takes 40 ms each: 1.2 s of work, longer than the ingest lease's fence.
    const own = await startProcess('own', prefix, 'odds.book.match.>', 40);
    processes = [own];
    let longestGap = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    try {
      for (let n = 0; n < 30; n++) own.client.emitFrame(`odds.book.match.29.${n}`, Buffer.from(`{"n":${n}}`));
      await waitFor(() => own.heard.length === 30, { timeoutMs: 10_000, what: 'all 30 handled' });
    } finally {
      clearInterval(ticker);
    }
    expect(own.heard.map((heard) => heard.body)).toEqual(Array.from({ length: 30 }, (_, n) => `{"n":${n}}`));
    // One message's handling, with room for a busy machine; all of them at once took over 1.2 s.
    expect(longestGap).toBeLessThan(600);
  });

  it('tell a start waiting for them once they are subscribed, and at once when NATS cannot be reached', async () => {
    const link = new NatsLink({ servers: [NATS_URL], name: 'waiting', subjectPrefix: prefix });
    const server = new NatsEventServer(link);
    server.addHandler('unrelated.subject', () => Promise.resolve(), true);
    const waiting = link.waitUntilSubscribed(10_000);
    await server.listen(() => undefined);
    try {
      expect(await waiting).toBe(true);
      expect(await link.waitUntilSubscribed(10)).toBe(true);
    } finally {
      await server.close();
      await link.onApplicationShutdown();
    }

    const unreachable = new NatsLink({ servers: [`nats://127.0.0.1:${await freePort()}`], name: 'down' });
    const started = performance.now();
    const answer = unreachable.waitUntilSubscribed(10_000);
    unreachable.start();
    try {
      expect(await answer).toBe(false);
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      await unreachable.onApplicationShutdown();
    }
  });
});
