import type { EdgeRejection } from './edge-answer';

/** A request line longer than this, when the header section overflows, is answered 414 rather than 431. */
const LONG_REQUEST_LINE = 8 * 1024;

/** What Node's HTTP parser attaches to the errors it reports on `clientError`. */
export interface ParserError {
  readonly code?: string;
  readonly reason?: string;
  /** The chunk being parsed when the error happened. */
  readonly rawPacket?: Buffer;
}

/**
 * The answer to a request Node's HTTP parser refused, or undefined when the
 * connection itself failed (reset, broken pipe) and nobody is left to read one.
 */
export function parserFailure(error: ParserError): EdgeRejection | undefined {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return requestLineTooLong(error.rawPacket)
        ? { status: 414, message: 'request URI too long' }
        : { status: 431, message: 'request header fields too large' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'request chunk extensions too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'request timeout' };
  }
  if (!error.code?.startsWith('HPE_')) return undefined;
  // The parser's reasons are fixed texts that never quote the request.
  const reason = error.reason ? `: ${error.reason.replace(/\.$/, '').toLowerCase()}` : '';
  return { status: 400, message: `malformed HTTP request${reason}` };
}

/**
 * Whether the overflowing chunk starts with a request line that alone is too
 * long. Only the current chunk is known, so a long line split over several
 * chunks is reported as 431, which is still true of it.
 */
function requestLineTooLong(packet: Buffer | undefined): boolean {
  if (!packet || !/^[A-Za-z-]+ /.test(packet.subarray(0, 32).toString('latin1'))) return false;
  const lineEnd = packet.indexOf('\n');
  return lineEnd < 0 ? packet.length > LONG_REQUEST_LINE : lineEnd > LONG_REQUEST_LINE;
}
