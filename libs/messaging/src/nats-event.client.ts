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

  /** `emit` of frame bytes on a dynamic subject, forwarded untouched, with NATS headers if given. */
  emitFrame(subject: string, frame: Uint8Array, meta?: MsgHdrs): void {
    this.emit(subject, meta ? new NatsRecord(frame, meta) : frame);
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
    if (!this.link.publish(String(packet.pattern), data, record?.headers)) {
      this.eventLogger.debug(`NATS not connected yet; dropped an event on ${String(packet.pattern)}`);
    }
    return Promise.resolve();
  }
}
