import { type ArgumentsHost, Catch, HttpException, Logger, type WsExceptionFilter } from '@nestjs/common';
import { WsException } from '@nestjs/websockets';
import { redactKeys } from '@app/observability';
import type { StreamConnection } from './stream-connection';

/**
 * Turns what a gateway handler throws into the app's error frame on that
 * client's socket, which stays open. Nest's default filter emits an
 * `exception` event, which a `ws` socket would never send.
 */
@Catch()
export class StreamExceptionFilter implements WsExceptionFilter {
  private readonly logger = new Logger(StreamExceptionFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const connection = host.switchToWs().getClient<StreamConnection>();
    connection.sendError(this.messageOf(exception));
  }

  private messageOf(exception: unknown): string {
    if (exception instanceof WsException) {
      const error = exception.getError();
      return typeof error === 'string' ? error : 'invalid frame';
    }
    if (exception instanceof HttpException && exception.getStatus() < 500) return exception.message;
    this.logger.error(
      `A stream handler failed: ${redactKeys(exception instanceof Error ? exception.message : String(exception))}`,
    );
    return 'internal error';
  }
}
