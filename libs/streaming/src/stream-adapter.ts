import type { INestApplicationContext } from '@nestjs/common';
import { Logger } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import type { MessageMappingProperties } from '@nestjs/websockets';
import type { Observable } from 'rxjs';
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

  override bindMessageHandlers(
    connection: StreamConnection,
    handlers: MessageMappingProperties[],
    transform: (data: unknown) => Observable<unknown>,
  ): void {
    const byAction = new Map(handlers.map((handler) => [String(handler.message), handler]));
    const actions = [...byAction.keys()];
    let previous = Promise.resolve();
    connection.onMessage((text) => {
      previous = previous
        .then(() => this.dispatch(connection, text, actions, byAction, transform))
        .catch((error: unknown) => {
          this.adapterLogger.error(`A stream handler failed: ${describe(error)}`);
        });
    });
  }

  /** The StreamServer drains every socket with 1001 when the application shuts down. */
  override close(): Promise<void> {
    return Promise.resolve();
  }

  override dispose(): Promise<void> {
    return Promise.resolve();
  }

  private async dispatch(
    connection: StreamConnection,
    text: string,
    actions: readonly string[],
    byAction: ReadonlyMap<string, MessageMappingProperties>,
    transform: (data: unknown) => Observable<unknown>,
  ): Promise<void> {
    const frame = parseClientFrame(text);
    if (!frame.ok) {
      connection.sendError(frame.error);
      return;
    }
    const action = readAction(frame.value, actions);
    if (!action.ok) {
      connection.sendError(action.error);
      return;
    }
    const handler = byAction.get(action.value);
    if (!handler || !connection.isOpen) return;
    // Like WsAdapter, whatever a handler returns (a value, promise or observable) goes back to its client.
    await transform(handler.callback(frame.value, action.value)).forEach((answer) => {
      if (answer !== undefined && answer !== null) connection.sendText(JSON.stringify(answer));
    });
  }
}

function describe(error: unknown): string {
  return redactKeys(error instanceof Error ? error.message : String(error));
}
