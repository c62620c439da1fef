/**
 * Counters of one stream endpoint since start, kept as plain numbers on the
 * hot path and read by the metrics endpoint at scrape time.
 */
export class StreamStats {
  framesSent = 0;
  framesConflated = 0;
  closedSlow = 0;
}
