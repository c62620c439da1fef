import type { Express, Response } from 'express';
import { clientHolds, entityTag } from './entity-tag';

/** What tagged answers say to caches: a browser may keep them, but asks again each time. */
export const TAGGED_CACHE_CONTROL = 'private, no-cache';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/** Whether an answer about to be sent gets a tag: a 200 JSON body of a GET or HEAD. */
export function isTaggable(method: string, status: number, contentType: unknown): boolean {
  return (
    (method === 'GET' || method === 'HEAD') &&
    status === 200 &&
    typeof contentType === 'string' &&
    JSON_TYPE.test(contentType)
  );
}

/**
 * Conditional GET for JSON answers, on one Express application. It replaces
 * `res.send` of the application's response prototype (`app.response`, the
 * extension point Express documents), where Express hands over the finished
 * bytes: `res.json` and Nest's replies both end there, so the tag is taken
 * from exactly what would go on the wire, and everything set on the response
 * before (request id, rate-limit headers) stays on it. An answer the client
 * holds becomes a 304 with the tag and no body; Express removes the body
 * headers of a 304 itself. Errors, non-JSON answers and other methods pass
 * untouched. Express's own weak tags are switched off, and so is its
 * freshness check (`req.fresh`, which `res.send` consults and which would
 * turn `If-None-Match: *` on any 2xx into a 304), so this is the one
 * mechanism. Nothing is added per request.
 */
export function installConditionalGet(app: Express): void {
  app.set('etag', false);
  Object.defineProperty(app.request, 'fresh', { configurable: true, get: () => false });
  const send = app.response.send;
  app.response.send = function sendTagged(this: Response, body?: unknown): Response {
    const request = this.req;
    if (
      (typeof body !== 'string' && !Buffer.isBuffer(body)) ||
      !isTaggable(request.method, this.statusCode, this.getHeader('Content-Type')) ||
      this.getHeader('ETag') !== undefined
    ) {
      return send.call(this, body);
    }
    const tag = entityTag(body);
    this.setHeader('ETag', tag);
    this.setHeader('Cache-Control', TAGGED_CACHE_CONTROL);
    if (!clientHolds(request.headers['if-none-match'], tag)) return send.call(this, body);
    this.status(304);
    return send.call(this);
  };
}
