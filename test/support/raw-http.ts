import { connect, type Socket } from 'node:net';

/** What came back for bytes written on a fresh TCP connection. */
export interface RawAnswer {
  /** 0 when no status line arrived. */
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** The connection was reset or failed before a whole answer was read. */
  readonly reset: boolean;
  /** Nothing complete arrived within the time allowed. */
  readonly timedOut: boolean;
}

/**
 * Writes `request` exactly as given (so it may be anything but HTTP) and reads
 * one answer: it ends at its Content-Length, at the end of a chunked body, or
 * when the server closes. Interim answers (100 Continue) are skipped.
 */
export function rawRequest(
  port: number,
  request: Buffer | string,
  timeoutMs = 10_000,
  {
    endAfterMs,
    writeSlowly,
  }: {
    endAfterMs?: number;
    /** Writes the request in parts with gaps and reads only once all is written, as a busy uploader would. */
    writeSlowly?: { parts: number; gapMs: number };
  } = {},
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (reset: boolean, timedOut: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(ender);
      socket.destroy();
      resolve({ ...parseAnswer(Buffer.concat(chunks)), reset, timedOut });
    };
    const timer = setTimeout(() => finish(false, true), timeoutMs);
    // Bytes that leave the parser waiting for more: ending our side makes it decide.
    const ender = endAfterMs === undefined ? undefined : setTimeout(() => socket.end(), endAfterMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (isComplete(Buffer.concat(chunks))) finish(false, false);
    });
    socket.on('end', () => finish(false, false));
    socket.on('close', () => finish(!isComplete(Buffer.concat(chunks)), false));
    socket.on('error', () => finish(true, false));
    socket.on('connect', () => {
      if (writeSlowly === undefined) {
        socket.write(request, () => undefined);
        return;
      }
      socket.pause();
      void writeInParts(socket, Buffer.from(request), writeSlowly).then(() => socket.resume());
    });
  });
}

async function writeInParts(
  socket: Socket,
  request: Buffer,
  { parts, gapMs }: { parts: number; gapMs: number },
): Promise<void> {
  const size = Math.ceil(request.length / parts);
  for (let at = 0; at < request.length && !socket.destroyed; at += size) {
    if (at > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
    socket.write(request.subarray(at, at + size), () => undefined);
  }
}

function headerEnd(data: Buffer): number {
  return data.indexOf('\r\n\r\n');
}

/** The data after any interim (1xx but 101) answers. */
function finalAnswer(data: Buffer): Buffer {
  let rest = data;
  while (/^HTTP\/1\.[01] 1(?!01)\d\d/.test(rest.subarray(0, 16).toString('latin1'))) {
    const end = headerEnd(rest);
    if (end < 0) return Buffer.alloc(0);
    rest = rest.subarray(end + 4);
  }
  return rest;
}

function parseHead(head: string): { status: number; headers: Record<string, string> } {
  const [statusLine = '', ...lines] = head.split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers };
}

function isComplete(all: Buffer): boolean {
  const data = finalAnswer(all);
  const end = headerEnd(data);
  if (end < 0) return false;
  const { status, headers } = parseHead(data.subarray(0, end).toString('latin1'));
  const body = data.subarray(end + 4);
  if (status === 101) return true;
  if (headers['content-length'] !== undefined) return body.length >= Number(headers['content-length']);
  if (/chunked/i.test(headers['transfer-encoding'] ?? ''))
    return body.includes('\r\n0\r\n\r\n') || body.indexOf('0\r\n\r\n') === 0;
  return false;
}

function parseAnswer(all: Buffer): Pick<RawAnswer, 'status' | 'headers' | 'body'> {
  const data = finalAnswer(all);
  const end = headerEnd(data);
  if (end < 0) return { status: 0, headers: {}, body: '' };
  const { status, headers } = parseHead(data.subarray(0, end).toString('latin1'));
  let body = data.subarray(end + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  else if (headers['content-length'] !== undefined)
    body = body.subarray(0, Number(headers['content-length']));
  return { status, headers, body: body.toString('utf8') };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
