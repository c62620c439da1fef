import type { INestApplicationContext } from '@nestjs/common';
import { Logger } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import type { MessageMappingProperties } from '@nestjs/websockets';
import { isObservable, type Observable } from 'rxjs';
import { redactKeys } from '@app/observability';
import { parseClientFrame, readAction } from './client-frame';
import type { StreamConnection } from './stream-connection';
import { GatewayStream } from './gateway-stream';
import { StreamServer } from './stream-server';

export interface StreamAdapterOptions {
  /**
   * Put in front of every gateway's path: the app's base path, which Nest's
   * global prefix does not apply to gateways.
   */
  readonly pathPrefix?: string;
  /** The app's error frame around a message. */
  readonly errorFrame: (message: string) => string;
}

type ConnectionHandler = (connection: StreamConnection, ...rest: unknown[]) => void;

/** A gateway's message handler with its client bound (Nest binds one per client). */
type BoundHandler = (frame: unknown, action: string) => unknown;

/** The actions of one gateway's handlers: the same for all its clients, so built once. */
interface ActionTable {
  /** Distinct actions, as error frames list them. */
  readonly actions: readonly string[];
  /** Where an action's handler sits in a client's handlers (the last one given for it). */
  readonly index: ReadonlyMap<string, number>;
}

/**
 * Nest's `WsAdapter`, bent to what the streams need: every gateway path is an
 * endpoint of the application's one `StreamServer` (one `upgrade` listener on
 * the HTTP port, the key checked before the upgrade, bounded queues, pings,
 * 1001 on drain), and the client object a gateway receives is the
 * `StreamConnection` in front of the socket.
 *
 * A client frame is `{"action": <handler>, ...}`: the action picks the
 * `@SubscribeMessage` handler and the whole frame is its body. Frames of one
 * client are handled one after another, so an unsubscribe cannot overtake the
 * subscribe before it; a frame that names no handler gets an error frame.
 */
export class StreamAdapter extends WsAdapter {
  private readonly adapterLogger = new Logger(StreamAdapter.name);
  private readonly actionTables = new Map<string, ActionTable>();

  constructor(
    private readonly app: INestApplicationContext,
    private readonly options: StreamAdapterOptions,
  ) {
    super(app);
  }

  /** Called once per gateway, so an app role without gateways never needs the StreamServer. */
  override create(_port: number, options?: { path?: string }): GatewayStream {
    if (!options?.path) throw new Error('a stream gateway needs a path');
    const streams = this.app.get(StreamServer, { strict: false });
    return new GatewayStream(
      `${this.options.pathPrefix ?? ''}${options.path}`,
      streams,
      this.options.errorFrame,
    );
  }

  override bindClientConnect(stream: GatewayStream, callback: ConnectionHandler): void {
    stream.onConnection((connection) => callback(connection));
  }

  override bindClientDisconnect(connection: StreamConnection, callback: () => void): void {
    connection.onClose(callback);
  }

  /**
   * Keeps, per client, only its bound handlers: Nest's handler records and `transform` (a closure
   * holding Nest's per-client scope) would keep about 0.3 KiB more alive for every idle socket.
   * A handler's result is read as `transform` reads it (ClientFrames.dispatch).
   */
  override bindMessageHandlers(
    connection: StreamConnection,
    handlers: MessageMappingProperties[],
    _transform: (data: unknown) => Observable<unknown>,
  ): void {
    const frames = new ClientFrames(
      connection,
      this.actionTable(handlers),
      handlers.map(({ callback }) => callback as BoundHandler),
      this.adapterLogger,
    );
    connection.onMessage(frames.receive.bind(frames));
  }

  /** The StreamServer drains every socket with 1001 when the application shuts down. */
  override close(): Promise<void> {
    return Promise.resolve();
  }

  override dispose(): Promise<void> {
    return Promise.resolve();
  }

  private actionTable(handlers: readonly MessageMappingProperties[]): ActionTable {
    const actions = handlers.map(({ message }) => String(message));
    const key = JSON.stringify(actions);
    let table = this.actionTables.get(key);
    if (!table) {
      const index = new Map(actions.map((action, at) => [action, at]));
      table = { actions: [...index.keys()], index };
      this.actionTables.set(key, table);
    }
    return table;
  }
}

/** One client's frames, handled one after another. */
class ClientFrames {
  /** The frame being handled and those queued behind it; none while the client is quiet. */
  private pending?: Promise<void>;

  constructor(
    private readonly connection: StreamConnection,
    private readonly table: ActionTable,
    private readonly handlers: readonly BoundHandler[],
    private readonly logger: Logger,
  ) {}

  receive(text: string): void {
    const turn: Promise<void> = (this.pending ?? Promise.resolve())
      .then(() => this.dispatch(text))
      .catch((error: unknown) => {
        this.logger.error(`A stream handler failed: ${describe(error)}`);
      })
      .then(() => {
        if (this.pending === turn) this.pending = undefined;
      });
    this.pending = turn;
  }

  private async dispatch(text: string): Promise<void> {
    const { connection, table } = this;
    const frame = parseClientFrame(text);
    if (!frame.ok) {
      connection.sendError(frame.error);
      return;
    }
    const action = readAction(frame.value, table.actions);
    if (!action.ok) {
      connection.sendError(action.error);
      return;
    }
    const at = table.index.get(action.value);
    const handler = at === undefined ? undefined : this.handlers[at];
    if (!handler || !connection.isOpen) return;
    // Like WsAdapter, whatever a handler returns (a value, promise or observable) goes back to its client.
    const result: unknown = await handler(frame.value, action.value);
    if (isObservable(result)) await result.forEach((answer) => this.answer(answer));
    else this.answer(result);
  }

  private answer(answer: unknown): void {
    if (answer !== undefined && answer !== null) this.connection.sendText(JSON.stringify(answer));
  }
}

function describe(error: unknown): string {
  return redactKeys(error instanceof Error ? error.message : String(error));
}
