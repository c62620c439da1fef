/** An error's message for a log line; what is thrown is not always an Error. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
