import { ConsoleLogger, Logger } from '@nestjs/common';
import pino from 'pino';
import { PinoNestLogger } from './pino-nest-logger';

function capture(level = 'info'): { logger: PinoNestLogger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const root = pino(
    { level },
    { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { logger: new PinoNestLogger(root), lines };
}

describe('PinoNestLogger', () => {
  it('writes the message with its context at the matching pino level', () => {
    const { logger, lines } = capture();
    logger.log('ready', 'Bootstrap');
    logger.warn('slow', 'Ingest');
    logger.debug('hidden', 'Ingest');
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, context: 'Bootstrap', msg: 'ready' }),
      expect.objectContaining({ level: 40, context: 'Ingest', msg: 'slow' }),
    ]);
  });

  it('keeps an error as err, an object as fields, and the stack Nest handlers pass as text', () => {
    const { logger, lines } = capture();
    logger.error(new Error('broke'), 'Ctx');
    logger.error({ reqId: 'r1', msg: 'Answered 503' }, 'Filter');
    logger.error('handler failed', 'Error: handler failed\n    at here', 'ExceptionsHandler');
    expect(lines[0]).toMatchObject({ level: 50, context: 'Ctx', msg: 'broke', err: { message: 'broke' } });
    expect(lines[1]).toMatchObject({ context: 'Filter', reqId: 'r1', msg: 'Answered 503' });
    expect(lines[2]).toMatchObject({
      context: 'ExceptionsHandler',
      msg: 'handler failed',
      err: { stack: 'Error: handler failed\n    at here' },
    });
  });

  it("serves as Nest's logger", () => {
    const { logger, lines } = capture();
    Logger.overrideLogger(logger);
    try {
      new Logger('Svc').log('through Nest');
    } finally {
      Logger.overrideLogger(new ConsoleLogger());
    }
    expect(lines).toEqual([expect.objectContaining({ context: 'Svc', msg: 'through Nest' })]);
  });
});
