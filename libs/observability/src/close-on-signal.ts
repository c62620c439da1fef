import type { INestApplication } from '@nestjs/common';

/**
 * Closes the application on SIGTERM/SIGINT (readiness down, no new handshakes,
 * 1001 to streams, in-flight requests answered, NATS drained) and then exits
 * with status 0: a drain that went as planned is a clean exit, which Nest's own
 * shutdown hooks hide by re-raising the signal. Should anything hang, the
 * process still exits (status 1) by the deadline, inside the 10 s that
 * operators (and the Kubernetes grace period) give a stopping process.
 */
export function closeOnSignal(app: INestApplication, deadlineMs = 9_000): void {
  let closing = false;
  const close = (signal: NodeJS.Signals): void => {
    if (closing) return;
    closing = true;
    setTimeout(() => {
      process.stderr.write(`shutdown after ${signal} took longer than ${deadlineMs} ms; exiting\n`);
      process.exit(1);
    }, deadlineMs).unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(
          `shutdown after ${signal} failed: ${error instanceof Error ? error.stack : String(error)}\n`,
        );
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', close);
  process.on('SIGINT', close);
}
