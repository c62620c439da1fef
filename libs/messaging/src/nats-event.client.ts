import { Injectable, Logger } from '@nestjs/common';
import { ClientNats, NatsRecord, type ReadPacket } from '@nestjs/microservices';
import type { MsgHdrs } from 'nats';
import { lastValueFrom } from 'rxjs';
import { NatsLink } from './nats-link';
import type { Subject, SubjectPayloads } from './subjects';

/** Frame bytes go out untouched; a typed event is its JSON, with no envelope. */
export function encodeEvent(data: unknown): Uint8Array {
  return data instanceof Uint8Array ? data : Buffer.from(JSON.stringify(data), 'utf8');
}

/**
 * The `ClientProxy` that publishes events (`emit(subject, payload)`) on the
 * process's one `NatsLink`. It never fails the caller: before the first
 * connection an event has nowhere to go and is dropped (logged at debug);
 * while reconnecting the link buffers it.
 */
@Injectable()
export class NatsEventClient extends ClientNats {
  private readonly eventLogger = new Logger(NatsEventClient.name);

  constructor(private readonly link: NatsLink) {
    super({});
  }

  /** `emit` with the payload type the subject map declares; resolves once handed to the connection. */
  emitEvent<S extends Subject>(subject: S, payload: SubjectPayloads[S]): Promise<void> {
    return lastValueFrom(this.emit<void>(subject, payload), { defaultValue: undefined });
  }

  /**
   * Frame bytes on a dynamic subject, forwarded untouched, with NATS headers if
   * given. It goes straight to this proxy's `dispatchEvent`, as `emit` would,
   * but without the hot observable `emit` builds per call: nothing awaits a
   * frame, and ingests send one per change (those observables were about 3%
   * of a ROLE=all process's CPU in the live fan-out bench).
   */
  emitFrame(subject: string, frame: Uint8Array, meta?: MsgHdrs): void {
    void this.dispatchEvent({ pattern: subject, data: meta ? new NatsRecord(frame, meta) : frame });
  }

  override connect(): Promise<never> {
    return Promise.resolve(undefined as never);
  }

  override close(): Promise<void> {
    return Promise.resolve();
  }

  protected override dispatchEvent(packet: ReadPacket): Promise<void> {
    const record =
      packet.data instanceof NatsRecord ? (packet.data as NatsRecord<unknown, MsgHdrs>) : undefined;
    const data = encodeEvent(record ? record.data : packet.data);
    try {
      if (!this.link.publish(String(packet.pattern), data, record?.headers)) {
        this.eventLogger.debug(`NATS not connected yet; dropped an event on ${String(packet.pattern)}`);
      }
    } catch (error) {
      // A connection closing under the call, or a payload over the server's limit: the caller is
      // an ingest or a key change in the middle of its own work, which must not stop for it.
      this.eventLogger.warn(`Could not publish on ${String(packet.pattern)}: ${String(error)}`);
    }
    return Promise.resolve();
  }
}
