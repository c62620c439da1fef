import { createInbox, type Msg, type MsgHdrs, type NatsConnection, type Subscription } from 'nats';

/** What JetStream answers to a publish it stored. */
export interface StoredAck {
  readonly seq: number;
  /** The stream had the message's id already: `seq` is the first copy's. */
  readonly duplicate: boolean;
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
  readonly timer: NodeJS.Timeout;
}

/**
 * JetStream publishes whose acknowledgements arrive on one wildcard inbox
 * subscription per connection, matched by a token. nats.js's `js.publish`
 * spent 40 to 50 µs of client CPU per append (a request object, a timer and
 * a promise race per call, and an Error built to cancel each request once
 * answered); this path 15 to 35 µs (`bench/probes/change-log-append-cost.js`). An
 * ingest appends once per change, so this is per change.
 */
export class AckInbox {
  private bound?: { connection: NatsConnection; prefix: string; subscription: Subscription };
  private readonly waiting = new Map<string, Waiting>();
  private token = 0;

  /** Publishes on `connection` and resolves with JetStream's acknowledgement, or rejects. */
  publish(
    connection: NatsConnection,
    subject: string,
    data: Uint8Array,
    meta: MsgHdrs,
    timeoutMs: number,
  ): Promise<StoredAck> {
    const prefix = this.inboxOn(connection);
    const token = String(++this.token);
    return new Promise<StoredAck>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(token);
        reject(new Error(`no acknowledgement from JetStream within ${timeoutMs} ms (timeout)`));
      }, timeoutMs);
      timer.unref();
      this.waiting.set(token, { resolve, reject, timer });
      try {
        connection.publish(subject, data, { headers: meta, reply: `${prefix}${token}` });
      } catch (error) {
        clearTimeout(timer);
        this.waiting.delete(token);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  private inboxOn(connection: NatsConnection): string {
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
    clearTimeout(waiting.timer);
    const outcome = readAck(message);
    if (outcome instanceof Error) waiting.reject(outcome);
    else waiting.resolve(outcome);
  }
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
