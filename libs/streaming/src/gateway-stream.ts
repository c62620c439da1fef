import type { StreamConnection } from './stream-connection';
import type { StreamHandshake } from './stream-endpoint';
import type { StreamServer } from './stream-server';

/**
 * The server object `StreamAdapter.create` returns for one gateway, and so the
 * one its `afterInit` receives. The path is served from the moment the
 * gateway hands over its handshake (`serve`); a gateway that never does (an
 * app role without streams) leaves the path unserved.
 */
export class GatewayStream<P = unknown, M = unknown> {
  private connectionListener?: (connection: StreamConnection<P, M>) => void;

  constructor(
    readonly path: string,
    private readonly streams: StreamServer,
    private readonly errorFrame: (message: string) => string,
  ) {}

  serve(handshake: StreamHandshake<P, M>): void {
    this.streams.register<P, M>({
      path: this.path,
      authenticate: (request) => handshake.authenticate(request),
      reject: (error) => handshake.reject(error),
      accept: (connection) => this.connectionListener?.(connection),
      errorFrame: this.errorFrame,
      conflate: handshake.conflate,
      limits: handshake.limits,
      subscriptionCount: handshake.subscriptionCount ? () => handshake.subscriptionCount?.() ?? 0 : undefined,
      heartbeat: handshake.heartbeat,
      invalidParameter: handshake.invalidParameter
        ? (name) => handshake.invalidParameter?.(name) ?? ''
        : undefined,
      connectionLimit: handshake.connectionLimit,
      keyHeaders: handshake.keyHeaders,
    });
  }

  /** Nest's connection handler: lifecycle hooks, then the message handlers, of the gateway. */
  onConnection(listener: (connection: StreamConnection<P, M>) => void): void {
    this.connectionListener = listener;
  }
}
