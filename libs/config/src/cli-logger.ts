import { Logger, type LoggerService } from '@nestjs/common';

/**
 * For command-line tools whose stdout carries exactly one JSON object:
 * warnings and errors go to stderr, chatter nowhere.
 */
const stderrLogger: LoggerService = {
  log: () => undefined,
  error: (message: unknown) => process.stderr.write(`${String(message)}\n`),
  warn: (message: unknown) => process.stderr.write(`${String(message)}\n`),
};

export function useStderrLogging(): void {
  Logger.overrideLogger(stderrLogger);
}
