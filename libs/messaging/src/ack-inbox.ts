import { createInbox, type Msg, type NatsConnection, type Subscription } from 'nats';

/** What JetStream answers to a publish it stored. */
export interface StoredAck {
  readonly seq: number;
  /** The stream had the message's id already: `seq` is the first copy's. */
  readonly duplicate: boolean;
}

/** One message to publish with an acknowledgement. */
export interface AckedPublish {
  readonly subject: string;
  readonly data: Uint8Array;
  /**
   * The message's header block as NATS writes it (`NATS/1.0\r\n`, one
   * `Key: value\r\n` line each, then `\r\n`), in ASCII: keys and values
   * without line breaks or other characters outside it.
   */
  readonly headers: string;
}

/** JetStream refused a publish; `api_error` as nats.js reports it, so callers read both alike. */
export class JetStreamRefusal extends Error {
  override readonly name = 'JetStreamRefusal';

  constructor(readonly api_error: { code?: number; err_code?: number; description?: string }) {
    super(api_error.description ?? 'JetStream refused the publish');
  }
}

interface Waiting {
  readonly resolve: (ack: StoredAck) => void;
  readonly reject: (error: Error) => void;
  readonly batch: Batch;
}

/** The publishes of one call: their shared timer goes once none is waiting. */
interface Batch {
  timer?: NodeJS.Timeout;
  waiting: number;
}

/** The part of nats.js's protocol handler a batch is written through (not in its typed API). */
interface ProtocolWriter {
  sendCommand(bytes: Uint8Array): void;
}

/**
 * JetStream publishes whose acknowledgements arrive on one wildcard inbox
 * subscription per connection, matched by a token. nats.js's `js.publish`
 * spent 40 to 50 µs of client CPU per append (a request object, a timer and
 * a promise race per call, and an Error built to cancel each request once
 * answered). Its `publish` still costs, per message, a header object, a
 * protocol line encoded into a buffer of its own and four buffers queued and
 * copied again at the flush. Here the messages of one call are written as one
 * buffer of protocol lines, headers and payloads, and share one timer. An
 * ingest appends once per change, a thousand times in a big book's 1% poll
 * (`bench/probes/change-log-append-cost.js`); `publishAckingLast` spares it
 * all but one of the acknowledgements when the stream can vouch for the rest.
 */
export class AckInbox {
  private bound?: { connection: NatsConnection; prefix: string; subscription: Subscription };
  private readonly waiting = new Map<string, Waiting>();
  private token = 0;

  /**
   * Publishes on `connection`; each promise resolves with its message's
   * acknowledgement, or rejects (a refusal, no answer within `timeoutMs`, or
   * a connection that takes nothing more).
   */
  publish(
    connection: NatsConnection,
    publishes: readonly AckedPublish[],
    timeoutMs: number,
  ): Promise<StoredAck>[] {
    const oversized = publishes.map((message) => oversizedOn(connection, message));
    const sent = publishes.filter((_, index) => !oversized[index]);
    const acks = this.send(connection, sent, timeoutMs, true);
    let next = 0;
    return oversized.map((reason) => (reason ? Promise.reject(reason) : acks[next++]));
  }

  /**
   * Publishes on `connection` asking an acknowledgement of the last message
   * only: the others go without a reply subject, and JetStream answers
   * nothing for them, whether it takes them or not. The promise is the last
   * message's, as `publish` would give it; a message over the server's limit
   * fails the call before anything is written.
   */
  publishAckingLast(
    connection: NatsConnection,
    publishes: readonly AckedPublish[],
    timeoutMs: number,
  ): Promise<StoredAck> {
    for (const message of publishes) {
      const reason = oversizedOn(connection, message);
      if (reason) return Promise.reject(reason);
    }
    const acks = this.send(connection, publishes, timeoutMs, false);
    return acks[0] ?? Promise.reject(new Error('nothing to publish'));
  }

  /** Writes `publishes` in one go; a promise per message asking a reply (every one, or the last only). */
  private send(
    connection: NatsConnection,
    publishes: readonly AckedPublish[],
    timeoutMs: number,
    ackEach: boolean,
  ): Promise<StoredAck>[] {
    let prefix: string;
    try {
      prefix = this.inboxOn(connection);
    } catch (error) {
      const reason = asError(error);
      return ackEach ? publishes.map(() => Promise.reject(reason)) : [Promise.reject(reason)];
    }
    const tokens: string[] = [];
    const commands: Command[] = [];
    const batch: Batch = { waiting: 0 };
    const acks: Promise<StoredAck>[] = [];
    publishes.forEach((message, index) => {
      const headerBytes = message.headers.length;
      const length = headerBytes + message.data.length;
      if (!ackEach && index < publishes.length - 1) {
        commands.push({ line: `HPUB ${message.subject} ${headerBytes} ${length}\r\n`, message });
        return;
      }
      const token = String(++this.token);
      tokens.push(token);
      commands.push({
        line: `HPUB ${message.subject} ${prefix}${token} ${headerBytes} ${length}\r\n`,
        message,
      });
      acks.push(
        new Promise<StoredAck>((resolve, reject) => this.waiting.set(token, { resolve, reject, batch })),
      );
    });
    if (tokens.length === 0) return acks;
    batch.waiting = tokens.length;
    const timer = setTimeout(() => {
      for (const token of tokens) {
        const waiting = this.waiting.get(token);
        if (!waiting) continue;
        this.waiting.delete(token);
        waiting.reject(new Error(`no acknowledgement from JetStream within ${timeoutMs} ms (timeout)`));
      }
    }, timeoutMs);
    timer.unref();
    batch.timer = timer;
    try {
      writeAll(connection, commands);
    } catch (error) {
      clearTimeout(timer);
      const reason = asError(error);
      for (const token of tokens) {
        this.waiting.get(token)?.reject(reason);
        this.waiting.delete(token);
      }
    }
    return acks;
  }

  /** The inbox prefix on `connection`; throws when the connection takes no publish now. */
  private inboxOn(connection: NatsConnection): string {
    const refused = whyRefused(connection);
    if (refused) throw refused;
    if (this.bound?.connection === connection) return this.bound.prefix;
    this.bound?.subscription.unsubscribe();
    const inbox = createInbox();
    const subscription = connection.subscribe(`${inbox}.*`, {
      callback: (error, message) => {
        if (!error) this.answer(message.subject.slice(inbox.length + 1), message);
      },
    });
    this.bound = { connection, prefix: `${inbox}.`, subscription };
    return this.bound.prefix;
  }

  private answer(token: string, message: Msg): void {
    const waiting = this.waiting.get(token);
    if (!waiting) return;
    this.waiting.delete(token);
    if (--waiting.batch.waiting === 0) clearTimeout(waiting.batch.timer);
    const outcome = readAck(message);
    if (outcome instanceof Error) waiting.reject(outcome);
    else waiting.resolve(outcome);
  }
}

/** What was thrown, as an Error a promise can reject with. */
export function asError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}

/** Why the server would refuse `message` for its size; undefined when it would not. */
function oversizedOn(connection: NatsConnection, message: AckedPublish): Error | undefined {
  const maxPayload = connection.info?.max_payload ?? Number.POSITIVE_INFINITY;
  const length = message.headers.length + message.data.length;
  return length > maxPayload
    ? new Error(`a message of ${length} bytes is over the server's limit of ${maxPayload}`)
    : undefined;
}

/** Why `connection` takes no publish now, as nats.js's own `publish` would refuse it; undefined when it does. */
function whyRefused(connection: NatsConnection): Error | undefined {
  if (connection.isClosed()) return new Error('the NATS connection is closed');
  if (connection.isDraining()) return new Error('the NATS connection is draining');
  return undefined;
}

/** One `HPUB` command: its protocol line, and the message it announces. */
interface Command {
  readonly line: string;
  readonly message: AckedPublish;
}

/**
 * The commands as one buffer, handed to the connection's outbound queue,
 * which sends it with what else is queued and holds it while the connection
 * is reconnecting.
 */
function writeAll(connection: NatsConnection, commands: readonly Command[]): void {
  // A subject may hold characters outside ASCII (three bytes at most each in UTF-8), so room
  // for the longest line is taken and the buffer cut to what was written.
  let room = 0;
  for (const { line, message } of commands)
    room += line.length * 3 + message.headers.length + message.data.length + 2;
  const bytes = Buffer.allocUnsafe(room);
  let at = 0;
  for (const { line, message } of commands) {
    at += bytes.write(line, at, 'utf8');
    at += bytes.write(message.headers, at, 'latin1');
    bytes.set(message.data, at);
    at += message.data.length;
    bytes[at++] = 0x0d;
    bytes[at++] = 0x0a;
  }
  writerOf(connection).sendCommand(bytes.subarray(0, at));
}

function writerOf(connection: NatsConnection): ProtocolWriter {
  const protocol = (connection as unknown as { protocol?: Partial<ProtocolWriter> }).protocol;
  if (typeof protocol?.sendCommand !== 'function') {
    throw new Error('this nats.js has no protocol writer to publish through');
  }
  return protocol as ProtocolWriter;
}

/** The acknowledgement in a reply, or why there is none (no stream for the subject, a refusal). */
export function readAck(message: Pick<Msg, 'headers' | 'data'>): StoredAck | Error {
  if (message.headers?.hasError) {
    const { code, description } = message.headers;
    return code === 503
      ? new Error('no JetStream stream takes this subject (503 no responders)')
      : new Error(`JetStream answered ${code} ${description}`);
  }
  let body: { seq?: unknown; duplicate?: unknown; error?: JetStreamRefusal['api_error'] };
  try {
    const { buffer, byteOffset, byteLength } = message.data;
    // A view of the bytes nats.js received, not a copy: one acknowledgement per change appended.
    body = JSON.parse(Buffer.from(buffer, byteOffset, byteLength).toString('utf8')) as typeof body;
  } catch {
    return new Error('JetStream answered something other than JSON');
  }
  if (body.error) return new JetStreamRefusal(body.error);
  if (typeof body.seq !== 'number') return new Error('JetStream answered without a sequence');
  return { seq: body.seq, duplicate: body.duplicate === true };
}
