import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { connect, DebugEvents, Events, type NatsConnection, type Subscription } from 'nats';
import type { BackoffPolicy } from '@app/clock';
import { ReconnectSchedule } from './reconnect-schedule';
import type { Subject, SubjectPayloads } from './subjects';

export const NATS_OPTIONS = Symbol('NATS_OPTIONS');

export interface NatsOptions {
  /** Server URLs; NATS_URL is a comma-separated list of these. */
  readonly servers: readonly string[];
  /** Connection name shown by the server's monitoring. */
  readonly name: string;
  readonly backoff?: BackoffPolicy;
  /** How often the client pings; two unanswered pings mean a dead link. */
  readonly pingIntervalMs?: number;
  /**
   * Prepended (with a dot) to every subject, so deployments or test runs that
   * share one NATS server never hear each other. Empty means none.
   */
  readonly subjectPrefix?: string;
}

/**
 * Retries towards NATS stay short: stream clients must hear the next change
 * within a second of a restarted server answering, and an attempt is one TCP
 * connect to a server of the same cluster, cheap even several times a second
 * from every replica. Jitter keeps replicas from reconnecting in lockstep.
 */
export const NATS_RECONNECT_BACKOFF: BackoffPolicy = { initialMs: 100, maxMs: 500, jitter: 0.5 };

export type NatsState = 'connecting' | 'connected' | 'reconnecting' | 'closed';

type Handler<S extends Subject> = (payload: SubjectPayloads[S]) => void;

/** Receives the raw bytes and the subject (without the deployment prefix). */
export type BytesHandler = (data: Uint8Array, subject: string) => void;

interface Registration {
  readonly subject: string;
  readonly onMessage: (data: Uint8Array, subject: string) => void;
  subscription?: Subscription;
  active: boolean;
}

export function parseNatsServers(value: string): string[] {
  return value
    .split(',')
    .map((server) => server.trim())
    .filter((server) => server.length > 0);
}

/**
 * The process's single NATS connection. It connects in the background and
 * keeps trying forever with backoff and jitter, both before the first
 * connection and after any loss, so a NATS outage never needs a restart.
 * Subscriptions made before the connection exists are applied once it does.
 */
@Injectable()
export class NatsClient implements OnApplicationShutdown {
  private readonly logger = new Logger(NatsClient.name);
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();
  private readonly schedule: ReconnectSchedule;
  private readonly registrations = new Set<Registration>();
  private readonly reconnectListeners = new Set<() => void>();
  private readonly connectedWaiters = new Set<() => void>();
  private connection?: NatsConnection;
  private current: NatsState = 'connecting';
  private started = false;
  private stopping = false;

  constructor(@Inject(NATS_OPTIONS) private readonly options: NatsOptions) {
    this.schedule = new ReconnectSchedule(Date.now, options.backoff ?? NATS_RECONNECT_BACKOFF);
  }

  get state(): NatsState {
    return this.current;
  }

  isConnected(): boolean {
    return this.current === 'connected';
  }

  /** Starts connecting (idempotent); never throws, never gives up. */
  start(): void {
    if (this.started) return;
    this.started = true;
    void this.connectLoop();
  }

  /** Resolves true once connected, false if `timeoutMs` passes first. */
  async waitUntilConnected(timeoutMs: number): Promise<boolean> {
    this.start();
    if (this.isConnected()) return true;
    return new Promise<boolean>((resolve) => {
      const done = (connected: boolean) => {
        clearTimeout(timer);
        this.connectedWaiters.delete(onConnected);
        resolve(connected);
      };
      const onConnected = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.connectedWaiters.add(onConnected);
    });
  }

  publish<S extends Subject>(subject: S, payload: SubjectPayloads[S]): boolean {
    return this.publishBytes(subject, this.encoder.encode(JSON.stringify(payload)));
  }

  /**
   * Publishes already-serialised bytes. While reconnecting the client buffers
   * them; before the first connection there is nowhere to put them, so the
   * call reports false and the caller decides what that means.
   */
  publishBytes(subject: string, data: Uint8Array): boolean {
    if (!this.connection || this.current === 'closed') return false;
    this.connection.publish(this.qualify(subject), data);
    return true;
  }

  subscribe<S extends Subject>(subject: S, handler: Handler<S>): () => void {
    return this.subscribeBytes(subject, (data) => {
      let payload: SubjectPayloads[S];
      try {
        payload = JSON.parse(this.decoder.decode(data)) as SubjectPayloads[S];
      } catch {
        this.logger.warn(`Ignored a malformed message on ${subject}`);
        return;
      }
      handler(payload);
    });
  }

  /**
   * Subscribes to a subject or wildcard pattern and hands over the raw bytes,
   * for streams that forward a payload without parsing it once per message.
   */
  subscribeBytes(subject: string, handler: BytesHandler): () => void {
    const registration: Registration = { subject, active: true, onMessage: handler };
    this.registrations.add(registration);
    this.start();
    if (this.connection) this.attach(registration, this.connection);
    return () => {
      registration.active = false;
      registration.subscription?.unsubscribe();
      this.registrations.delete(registration);
    };
  }

  /**
   * Called after every re-established connection: messages published while
   * the link was down are lost, so holders of derived state resynchronise.
   */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  async close(): Promise<void> {
    this.stopping = true;
    const connection = this.connection;
    this.current = 'closed';
    if (connection && !connection.isClosed()) {
      try {
        await connection.drain();
      } catch {
        await connection.close();
      }
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  private async connectLoop(): Promise<void> {
    while (!this.stopping) {
      try {
        const connection = await connect({
          servers: [...this.options.servers],
          name: this.options.name,
          maxReconnectAttempts: -1,
          reconnectDelayHandler: () => this.schedule.delay(),
          pingInterval: this.options.pingIntervalMs ?? 10_000,
          maxPingOut: 2,
        });
        if (this.stopping) {
          await connection.close();
          return;
        }
        this.onConnected(connection);
        return;
      } catch (error) {
        const wait = this.schedule.delay();
        this.logger.warn(`NATS not reachable (${describe(error)}); retrying in ${wait} ms`);
        await sleep(wait);
      }
    }
  }

  private onConnected(connection: NatsConnection): void {
    this.connection = connection;
    this.current = 'connected';
    this.schedule.reset();
    this.logger.log('NATS connected');
    for (const registration of this.registrations) this.attach(registration, connection);
    for (const waiter of [...this.connectedWaiters]) waiter();
    void this.watchStatus(connection);
    void connection.closed().then((error) => {
      if (!this.stopping) {
        this.logger.error(`NATS connection closed unexpectedly (${describe(error)}); reconnecting`);
        this.connection = undefined;
        this.current = 'reconnecting';
        void this.connectLoop().then(() => this.notifyReconnected());
      }
    });
  }

  private async watchStatus(connection: NatsConnection): Promise<void> {
    for await (const status of connection.status()) {
      if (status.type === Events.Disconnect) {
        this.current = 'reconnecting';
        this.logger.warn('NATS disconnected; reconnecting');
      } else if (status.type === DebugEvents.Reconnecting) {
        this.current = 'reconnecting';
      } else if (status.type === Events.Reconnect) {
        this.current = 'connected';
        this.schedule.reset();
        this.logger.log('NATS reconnected');
        this.notifyReconnected();
      }
    }
  }

  private notifyReconnected(): void {
    for (const listener of this.reconnectListeners) {
      try {
        listener();
      } catch (error) {
        this.logger.error(`A reconnect listener failed: ${describe(error)}`);
      }
    }
  }

  private attach(registration: Registration, connection: NatsConnection): void {
    if (!registration.active) return;
    registration.subscription = connection.subscribe(this.qualify(registration.subject), {
      callback: (error, message) => {
        if (error) {
          this.logger.warn(`Subscription to ${registration.subject} failed: ${error.message}`);
          return;
        }
        try {
          registration.onMessage(message.data, this.unqualify(message.subject));
        } catch (handlerError) {
          this.logger.error(`A handler of ${registration.subject} failed: ${describe(handlerError)}`);
        }
      },
    });
  }

  private qualify(subject: string): string {
    return this.options.subjectPrefix ? `${this.options.subjectPrefix}.${subject}` : subject;
  }

  private unqualify(subject: string): string {
    const prefix = this.options.subjectPrefix;
    return prefix && subject.startsWith(`${prefix}.`) ? subject.slice(prefix.length + 1) : subject;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
