/**
 * Nest closes the application on SIGTERM/SIGINT (streams, in-flight requests,
 * NATS drain); should anything hang, the process still exits by this
 * deadline, inside the runtime contract's 10 s.
 */
export function exitWithinOnSignal(deadlineMs = 9_000): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      setTimeout(() => {
        process.stderr.write(`shutdown took longer than ${deadlineMs} ms; exiting\n`);
        process.exit(1);
      }, deadlineMs).unref();
    });
  }
}
