import type { INestApplication } from '@nestjs/common';
import { ServerNats, Transport } from '@nestjs/microservices';
import type { Msg, MsgHdrs, NatsConnection, Subscription } from 'nats';
import { NatsLink } from './nats-link';
import { qualifySubject, tokensMatch } from './subject-prefix';
import { JSON_SUBJECTS } from './subjects';

/**
 * What a handler receives for a message: the payload of a typed subject,
 * parsed (undefined when malformed), or the raw bytes of a frame subject,
 * forwarded without being parsed. The wire carries the payload alone, not
 * Nest's `{pattern, data}` envelope, so the keys CLI and every other
 * publisher speak plain NATS.
 */
export function decodeEvent(channel: string, value: Uint8Array): { pattern: string; data: unknown } {
  if (!JSON_SUBJECTS.has(channel)) return { pattern: channel, data: value };
  try {
    return { pattern: channel, data: JSON.parse(Buffer.from(value).toString('utf8')) as unknown };
  } catch {
    return { pattern: channel, data: undefined };
  }
}

/**
 * Nest's NATS transport (`@EventPattern` handlers of a hybrid application) on
 * the process's one `NatsLink`: subscriptions carry the deployment prefix, are
 * made on every new connection, and the application starts whether or not
 * NATS answers yet. Every replica gets every event: no queue group.
 */
export class NatsEventServer extends ServerNats {
  override readonly transportId = Transport.NATS;
  private readonly subscribed: Subscription[] = [];
  private detach?: () => void;
  private detachLocal?: () => void;
  private readonly patternTokens = new Map<string, readonly string[]>();

  constructor(private readonly link: NatsLink) {
    super({});
    this.deserializer = {
      deserialize: (value: Uint8Array, options?: { channel: string }) =>
        decodeEvent(options?.channel ?? '', value),
    };
  }

  override listen(callback: (error?: unknown) => void): Promise<void> {
    this.detach = this.link.onConnection((connection) => this.bind(connection));
    this.detachLocal = this.link.onLocalPublish((subject, qualified, data, headers) =>
      this.receiveLocal(subject, qualified, data, headers),
    );
    callback();
    return Promise.resolve();
  }

  override close(): Promise<void> {
    this.detach?.();
    this.detachLocal?.();
    for (const subscription of this.subscribed.splice(0)) subscription.unsubscribe();
    return Promise.resolve();
  }

  /**
   * Our patterns are plain subjects, never JSON: Nest's lookup tries
   * `JSON.parse` on every message's pattern first, and its throw costs about
   * 4 µs per message. Only a pattern no handler has by name takes that path.
   */
  protected override getRouteFromPattern(pattern: string): string {
    return this.messageHandlers.has(pattern) ? pattern : super.getRouteFromPattern(pattern);
  }

  /**
   * A message this process published, handed to every handler whose pattern
   * takes it, through the same `handleMessage` as one from the server.
   */
  private receiveLocal(subject: string, qualified: string, data: Uint8Array, headers?: MsgHdrs): void {
    // Every change an ingest publishes comes through here: its subject is split once, and each
    // pattern once in the process's life.
    const tokens = subject.split('.');
    for (const channel of this.messageHandlers.keys()) {
      let wanted = this.patternTokens.get(channel);
      if (!wanted) {
        wanted = channel.split('.');
        this.patternTokens.set(channel, wanted);
      }
      if (!tokensMatch(wanted, tokens)) continue;
      const message = { subject: qualified, data, headers } as Msg;
      this.handleMessage(channel, message).catch((failure: unknown) => {
        this.logger.error(`A handler of ${channel} failed: ${String(failure)}`);
      });
    }
  }

  private bind(connection: NatsConnection): void {
    this.subscribed.splice(0);
    for (const channel of this.messageHandlers.keys()) {
      this.subscribed.push(
        connection.subscribe(qualifySubject(this.link.subjectPrefix, channel), {
          callback: (error, message: Msg) => {
            if (error) this.logger.error(error.message);
            else
              this.handleMessage(channel, message).catch((failure: unknown) => {
                this.logger.error(`A handler of ${channel} failed: ${String(failure)}`);
              });
          },
        }),
      );
    }
    // Once the server has processed the subscriptions, what is published from now on arrives.
    connection.flush().then(
      () => this.link.subscriptionsReady(),
      (error: unknown) => {
        this.logger.warn(`Confirming the NATS subscriptions failed: ${String(error)}`);
      },
    );
  }
}

/** Makes an application hybrid: its `@EventPattern` handlers listen on NATS once `startAllMicroservices` runs. */
export function connectNatsEvents(app: INestApplication): void {
  app.connectMicroservice({ strategy: app.get(NatsEventServer) });
}
