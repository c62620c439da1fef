import { rawRequest } from '../../support/raw-http';
import type { FuzzRequest } from './fuzz-requests';

export interface RequestTally {
  tried: number;
  /** By status code; 0 counts connections that got no answer at all. */
  readonly byStatus: Record<string, number>;
  /** At most 20 requests that broke a rule, with what they got. */
  readonly failures: string[];
  failureCount: number;
}

/** Statuses whose answer carries no body by definition. */
const BODILESS = new Set([101, 204, 304]);

function describeRequest(request: FuzzRequest): string {
  const text = request.bytes.subarray(0, 300).toString('latin1');
  return `${request.kind} ${JSON.stringify(text)}${request.bytes.length > 300 ? `… (${request.bytes.length} bytes)` : ''}`;
}

/**
 * Checks one answer against the edge's rules: an answer arrives, no 5xx but
 * 503, and an error body is JSON with exactly the service's error field.
 */
export function ruleBroken(
  request: FuzzRequest,
  answer: {
    status: number;
    headers: Record<string, string>;
    body: string;
    reset: boolean;
    timedOut: boolean;
  },
  field: string,
): string | undefined {
  // Blank lines before a request line are skipped by HTTP parsers: nothing was asked.
  if (answer.status === 0 && request.kind === 'raw' && /^[\r\n ]*$/.test(request.bytes.toString('latin1'))) {
    return undefined;
  }
  if (answer.status === 0)
    return answer.timedOut ? 'no answer in time' : 'connection closed without an answer';
  if (answer.status >= 500 && answer.status !== 503) return `status ${answer.status}`;
  if (answer.status < 400 || request.method === 'HEAD' || BODILESS.has(answer.status)) return undefined;
  if (!/^application\/json/.test(answer.headers['content-type'] ?? '')) {
    return `status ${answer.status} with content-type ${answer.headers['content-type']} body ${JSON.stringify(answer.body.slice(0, 100))}`;
  }
  try {
    const body = JSON.parse(answer.body) as unknown;
    const keys = body && typeof body === 'object' ? Object.keys(body) : [];
    if (
      keys.length !== 1 ||
      keys[0] !== field ||
      typeof (body as Record<string, unknown>)[field] !== 'string'
    ) {
      return `status ${answer.status} body ${answer.body.slice(0, 100)}`;
    }
  } catch {
    return `status ${answer.status} body not JSON: ${JSON.stringify(answer.body.slice(0, 100))}`;
  }
  return undefined;
}

/** Sends every request on its own connection, `concurrency` at a time, and tallies the answers. */
export async function runRequests(
  port: number,
  requests: readonly FuzzRequest[],
  field: string,
  concurrency: number,
): Promise<RequestTally> {
  const tally: RequestTally = { tried: 0, byStatus: {}, failures: [], failureCount: 0 };
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++];
      const answer = await rawRequest(port, request.bytes, 20_000, {
        endAfterMs: request.kind === 'raw' ? 2_000 : undefined,
      });
      tally.tried += 1;
      tally.byStatus[answer.status] = (tally.byStatus[answer.status] ?? 0) + 1;
      const broken = ruleBroken(request, answer, field);
      if (broken !== undefined) {
        tally.failureCount += 1;
        if (tally.failures.length < 20) tally.failures.push(`${broken} <- ${describeRequest(request)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return tally;
}
