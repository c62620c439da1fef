/**
 * The JSON of a stream frame's `data`: the stored snapshot text with
 * `match_id` first. Built by splicing text so the snapshot is serialised once
 * by the ingest and never again.
 */
export function frameData(matchId: number, snapshotJson: string): string {
  return `{"match_id":${matchId},${snapshotJson.slice(1)}`;
}

/** The inverse of `frameData`: the snapshot text without `match_id`, or null if `data` is not that match's. */
export function snapshotJsonOf(matchId: number, data: string): string | null {
  const prefix = `{"match_id":${matchId},`;
  return data.startsWith(prefix) ? `{${data.slice(prefix.length)}` : null;
}
