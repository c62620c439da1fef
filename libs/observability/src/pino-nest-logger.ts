import type { LoggerService } from '@nestjs/common';
import type { Level, Logger as PinoInstance } from 'pino';

/**
 * Nest's logger interface over the process's pino logger: one JSON line per
 * call, with the caller's context as `context` and an error as `err`.
 *
 * It binds nothing per request. (nestjs-pino, used before, ran every request
 * in an AsyncLocalStorage scope, which turns on promise hooks for the whole
 * process: about a tenth of the REST workload's CPU per request, and a cost on
 * every promise of the streams as well.)
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly root: PinoInstance) {}

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  /** Nest passes the context last; its exception handlers pass `(message, stack, context)`. */
  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.root.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    const rest = params.slice();
    if (rest.length > 0) fields.context = rest.pop();
    if (message instanceof Error) {
      fields.err = message;
      this.root[level](fields, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.root[level](Object.assign(fields, message));
    } else if (level === 'error' && rest.length === 1 && typeof rest[0] === 'string') {
      const err = new Error(String(message));
      err.stack = rest[0];
      fields.err = err;
      this.root[level](fields, String(message));
    } else {
      this.root[level](fields, [message, ...rest].map(String).join(' '));
    }
  }
}
