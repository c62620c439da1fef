import type { Express, Response } from 'express';
import { clientHolds, entityTag } from './entity-tag';
import { PreparedJson } from './prepared-json';

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
 * mechanism. Nothing is added per request. A `PreparedJson` (handed to
 * `res.json`, as Nest does with an object a handler returns, or to `res.send`)
 * is sent as its bytes with the tag it carries, as JSON unless the route set
 * another type.
 */
export function installConditionalGet(app: Express): void {
  app.set('etag', false);
  Object.defineProperty(app.request, 'fresh', { configurable: true, get: () => false });
  const send = app.response.send;
  const json = app.response.json;
  app.response.json = function jsonPrepared(this: Response, body?: unknown): Response {
    return body instanceof PreparedJson ? this.send(body) : json.call(this, body);
  };
  app.response.send = function sendTagged(this: Response, answer?: unknown): Response {
    const request = this.req;
    const prepared = answer instanceof PreparedJson ? answer : undefined;
    // What Express's res.json would have set for the text; a Buffer alone would be sent as binary.
    if (prepared && this.getHeader('Content-Type') === undefined) {
      this.setHeader('Content-Type', 'application/json; charset=utf-8');
    }
    const body = prepared ? prepared.bytes : answer;
    if (
      (typeof body !== 'string' && !Buffer.isBuffer(body)) ||
      !isTaggable(request.method, this.statusCode, this.getHeader('Content-Type')) ||
      this.getHeader('ETag') !== undefined
    ) {
      return send.call(this, body);
    }
    const tag = prepared ? prepared.tag : entityTag(body);
    this.setHeader('ETag', tag);
    this.setHeader('Cache-Control', TAGGED_CACHE_CONTROL);
    if (!clientHolds(request.headers['if-none-match'], tag)) return send.call(this, body);
    this.status(304);
    return send.call(this);
  };
}
