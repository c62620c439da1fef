import type { Request, Response } from 'express';

/**
 * Sends a body serialized elsewhere (once per version), with an ETag when
 * given, answering 304 to a matching If-None-Match.
 */
export function sendJson(request: Request, response: Response, json: string, etag?: string): void {
  if (etag) {
    response.setHeader('ETag', etag);
    const presented = request.headers['if-none-match'];
    if (presented && presented.split(',').some((tag) => tag.trim() === etag)) {
      response.status(304).end();
      return;
    }
  }
  response.status(200).type('application/json').send(json);
}

export function sendError(response: Response, status: number, message: string): void {
  response
    .status(status)
    .type('application/json')
    .send(JSON.stringify({ error: message }));
}
