import type { CricketScore } from './snapshot.types';

const ALL_OUT_WICKETS = 10;

/**
 * Reads the provider's innings score ("245/6 (61.2)"; all out: "312 (88.4)").
 * Never throws: parts that cannot be read count as 0 runs, 0 wickets, overs "0",
 * and `raw` always keeps the string as sent so nothing is lost.
 */
export function parseCricketScore(raw: string): CricketScore {
  // A set score ("412 & 245/6") describes the current innings last.
  const current = raw.split('&').pop() ?? '';
  const overs = /\(\s*(\d+(?:\.\d+)?)/.exec(current)?.[1] ?? '0';
  const figures = current.replace(/\(.*$/, '').trim();
  const scored = /^(\d+)\s*(?:\/\s*(\d+))?/.exec(figures);
  if (!scored) return { runs: 0, wickets: 0, overs, raw };
  const runs = Number(scored[1]);
  const wickets = scored[2] === undefined ? ALL_OUT_WICKETS : Math.min(Number(scored[2]), ALL_OUT_WICKETS);
  return { runs, wickets, overs, raw };
}
