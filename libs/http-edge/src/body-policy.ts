import type { EdgeRejection } from './edge-answer';

/** Largest request body read, before or after decoding its Content-Encoding. */
export const DEFAULT_BODY_LIMIT_BYTES = 100 * 1024;

/** Methods whose body has no meaning here: it is read off the connection and dropped, never decoded. */
const IGNORED_BODY_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE']);

export function bodyIsIgnored(method: string | undefined): boolean {
  return IGNORED_BODY_METHODS.has((method ?? '').toUpperCase());
}

/** What the body reader reports: an http-errors error (status and type), or anything a stream threw. */
export interface BodyReadError {
  readonly status?: number;
  readonly type?: string;
  readonly encoding?: string;
}

/**
 * The client-facing answer to a body that could not be read. Every reason
 * is the client's doing, so none of them is a 500.
 */
export function bodyFailure(error: BodyReadError, contentEncoding: string | undefined): EdgeRejection {
  switch (error.type) {
    case 'entity.too.large':
      return { status: 413, message: 'request body too large' };
    case 'encoding.unsupported':
      return {
        status: 415,
        message: 'unsupported content encoding (supported: gzip, deflate, br, identity)',
      };
    case 'request.size.invalid':
      return { status: 400, message: 'request body does not match its Content-Length' };
    case 'request.aborted':
      return { status: 400, message: 'request body aborted' };
  }
  const encoding = (contentEncoding ?? 'identity').toLowerCase();
  if (encoding !== 'identity') return { status: 400, message: `request body is not valid ${encoding}` };
  return { status: 400, message: 'malformed request body' };
}
