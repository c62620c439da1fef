import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  connect,
  DebugEvents,
  Events,
  type JetStreamManager,
  type KV,
  type KvOptions,
  type MsgHdrs,
  type NatsConnection,
} from 'nats';
import type { BackoffPolicy } from '@app/clock';
import { PacedQueue } from './paced-queue';
import { ReconnectSchedule } from './reconnect-schedule';
import { qualifySubject } from './subject-prefix';

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

/** A message this process published: its subject without and with the deployment prefix. */
export type LocalListener = (
  subject: string,
  qualifiedSubject: string,
  data: Uint8Array,
  meta?: MsgHdrs,
) => void;

export function parseNatsServers(value: string): string[] {
  return value
    .split(',')
    .map((server) => server.trim())
    .filter((server) => server.length > 0);
}

/**
 * The process's single NATS connection, under the Nest NATS transport
 * (`NatsEventServer` subscribes on it, `NatsEventClient` publishes on it) and
 * JetStream (`ChangeLog`), which Nest's transport does not cover. It connects in the background and keeps trying forever
 * with backoff and jitter, both before the first connection and after any
 * loss, so a NATS outage never needs a restart (Nest's own transports give up
 * when the first connect fails).
 */
@Injectable()
export class NatsLink implements OnApplicationShutdown {
  private readonly logger = new Logger(NatsLink.name);
  private readonly schedule: ReconnectSchedule;
  private readonly connectionListeners = new Set<(connection: NatsConnection) => void>();
  private readonly reconnectListeners = new Set<() => void>();
  private readonly subscribedListeners = new Set<() => void>();
  private readonly connectedWaiters = new Set<() => void>();
  private readonly subscribedWaiters = new Set<(subscribed: boolean) => void>();
  /** The connection on which the event server's subscriptions were last confirmed. */
  private subscribedOn?: NatsConnection;
  private readonly localListeners = new Set<LocalListener>();
  private readonly localDeliveries = new PacedQueue();
  private connection?: NatsConnection;
  private manager?: { connection: NatsConnection; manager: Promise<JetStreamManager> };
  private readonly buckets = new Map<string, { connection: NatsConnection; kv: Promise<KV> }>();
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

  /**
   * Publishes bytes on a subject (the deployment prefix is added here). While
   * reconnecting the client buffers them; before the first connection there
   * is nowhere to put them, so the call reports false.
   */
  publish(subject: string, data: Uint8Array, meta?: MsgHdrs): boolean {
    if (!this.connection || this.current === 'closed') return false;
    const qualified = qualifySubject(this.options.subjectPrefix, subject);
    this.connection.publish(qualified, data, { headers: meta });
    if (this.localListeners.size > 0) {
      // The server does not echo this connection's messages back (`noEcho`): this process's own
      // subscribers get them here, after the caller's synchronous work, as they would from NATS.
      this.localDeliveries.push(() => {
        for (const listener of this.localListeners) listener(subject, qualified, data, meta);
      });
    }
    return true;
  }

  /**
   * Called with every message this process publishes (unqualified and
   * qualified subject): the connection does not receive its own messages, so
   * a process that both publishes and subscribes a subject (ROLE=all, or any
   * replica for the rate-limit and catalog events it sends) hears itself
   * here, without the round trip through the server.
   */
  onLocalPublish(listener: LocalListener): () => void {
    this.localListeners.add(listener);
    return () => this.localListeners.delete(listener);
  }

  /**
   * The current connection, for JetStream appends (`ChangeLog`), which the
   * Nest transport does not cover; throws while there is none, so callers
   * retry or fall back.
   */
  currentConnection(): NatsConnection {
    return this.openConnection();
  }

  /** The JetStream management API on the current connection, created once per connection. */
  jetStreamManager(): Promise<JetStreamManager> {
    const connection = this.openConnection();
    if (this.manager?.connection !== connection) {
      const manager = connection.jetstreamManager();
      manager.catch(() => (this.manager = undefined));
      this.manager = { connection, manager };
    }
    return this.manager.manager;
  }

  /**
   * A JetStream key-value bucket on the current connection, created with
   * `options` when missing, bound once per connection. Its requests give up
   * after `timeoutMs`, so a caller on a dead link learns it soon.
   */
  keyValue(bucket: string, options: Partial<KvOptions>, timeoutMs: number): Promise<KV> {
    const connection = this.openConnection();
    const bound = this.buckets.get(bucket);
    if (bound?.connection === connection) return bound.kv;
    const kv = connection.jetstream({ timeout: timeoutMs }).views.kv(bucket, options);
    kv.catch(() => this.buckets.delete(bucket));
    this.buckets.set(bucket, { connection, kv });
    return kv;
  }

  /** The deployment prefix every subject of this process carries. */
  get subjectPrefix(): string {
    return this.options.subjectPrefix ?? '';
  }

  /**
   * Called with every new connection (the first, and one made after the old
   * one closed for good), now if one is open: subscriptions live on a
   * connection and must be made again on a new one.
   */
  onConnection(listener: (connection: NatsConnection) => void): () => void {
    this.connectionListeners.add(listener);
    this.start();
    if (this.connection) listener(this.connection);
    return () => this.connectionListeners.delete(listener);
  }

  /**
   * Called after every re-established connection: messages published while
   * the link was down are lost, so holders of derived state resynchronise.
   */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  /**
   * Called each time the application's event handlers have subscribed on a
   * new connection, once the server has them (a reconnect of the same
   * connection restores them without this: see onReconnect): state read before that (a load at start) may miss what was
   * published in between, so its holders read it again.
   */
  onSubscribed(listener: () => void): () => void {
    this.subscribedListeners.add(listener);
    return () => this.subscribedListeners.delete(listener);
  }

  /** The event server's word that its subscriptions on the current connection are in place. */
  subscriptionsReady(): void {
    this.subscribedOn = this.connection;
    for (const waiter of [...this.subscribedWaiters]) waiter(true);
    this.notify(this.subscribedListeners, 'A subscription listener');
  }

  /**
   * Resolves true once the event server's subscriptions are confirmed on the
   * current connection; false when a connection attempt fails first or
   * `timeoutMs` passes, so a process starting without NATS does not wait.
   */
  waitUntilSubscribed(timeoutMs: number): Promise<boolean> {
    if (this.connection && this.subscribedOn === this.connection) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const done = (subscribed: boolean) => {
        clearTimeout(timer);
        this.subscribedWaiters.delete(done);
        resolve(subscribed);
      };
      const timer = setTimeout(() => done(false), timeoutMs);
      this.subscribedWaiters.add(done);
    });
  }

  private openConnection(): NatsConnection {
    if (!this.connection || this.current !== 'connected') throw new Error('NATS is not connected');
    return this.connection;
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
          // This process's own messages reach its subscribers through `onLocalPublish`: a ROLE=all
          // process would otherwise receive each change it publishes back from the server, a read and
          // a parse per change for bytes it already holds.
          noEcho: true,
          // A stack captured for every request (each change-log append is one) is a large share of
          // an append's CPU; a timeout is still reported, without the caller's stack.
          noAsyncTraces: true,
        });
        if (this.stopping) {
          await connection.close();
          return;
        }
        this.onConnected(connection);
        return;
      } catch (error) {
        for (const waiter of [...this.subscribedWaiters]) waiter(false);
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
    for (const listener of this.connectionListeners) listener(connection);
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
    this.notify(this.reconnectListeners, 'A reconnect listener');
  }

  private notify(listeners: Set<() => void>, what: string): void {
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        this.logger.error(`${what} failed: ${describe(error)}`);
      }
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
