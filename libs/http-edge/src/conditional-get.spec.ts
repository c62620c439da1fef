import express, { type Express } from 'express';
import request from 'supertest';
import { installConditionalGet, isTaggable, TAGGED_CACHE_CONTROL } from './conditional-get';
import { entityTag } from './entity-tag';
import { PreparedJson } from './prepared-json';

const BODY = { id: 7, name: 'Arsenal' };
const TEXT = JSON.stringify(BODY);
/** Not ASCII, so bytes and characters differ in number. */
const PREPARED_TEXT = JSON.stringify({ id: 8, name: 'Bayern München' });
const PREPARED = new PreparedJson(PREPARED_TEXT);

/** A bare Express app with conditional GET, a header set before the handler, and a few kinds of answer. */
function app(): Express {
  const server = express();
  installConditionalGet(server);
  server.use((_req, res, next) => {
    res.setHeader('RateLimit-Remaining', '41');
    next();
  });
  server.get('/json', (_req, res) => void res.json(BODY));
  server.get('/text-json', (_req, res) => void res.type('application/json').send(TEXT));
  server.get('/prepared', (_req, res) => void res.json(PREPARED));
  server.get('/prepared-text', (_req, res) => void res.type('application/json').send(PREPARED_TEXT));
  server.get('/prepared-404', (_req, res) => void res.status(404).json(PREPARED));
  server.get('/plain', (_req, res) => void res.type('text/plain').send('ok'));
  server.get('/missing', (_req, res) => void res.status(404).json({ detail: 'match not found' }));
  server.get('/created', (_req, res) => void res.status(201).json(BODY));
  server.post('/json', (_req, res) => void res.json(BODY));
  return server;
}

describe('isTaggable', () => {
  it('takes 200 JSON answers of GET and HEAD only', () => {
    expect(isTaggable('GET', 200, 'application/json; charset=utf-8')).toBe(true);
    expect(isTaggable('HEAD', 200, 'application/problem+json')).toBe(true);
    expect(isTaggable('GET', 404, 'application/json')).toBe(false);
    expect(isTaggable('POST', 200, 'application/json')).toBe(false);
    expect(isTaggable('GET', 200, 'text/plain')).toBe(false);
    expect(isTaggable('GET', 200, 'application/jsonl')).toBe(false);
    expect(isTaggable('GET', 200, undefined)).toBe(false);
  });
});

describe('installConditionalGet', () => {
  const tag = entityTag(TEXT);

  it('tags a JSON answer with the hash of its bytes, objects and pre-serialised text alike', async () => {
    for (const path of ['/json', '/text-json']) {
      const answer = await request(app()).get(path).expect(200);
      expect(answer.text).toBe(TEXT);
      expect(answer.headers.etag).toBe(tag);
      expect(answer.headers['cache-control']).toBe(TAGGED_CACHE_CONTROL);
    }
  });

  it('answers 304 with the tag, no body and the headers set before', async () => {
    for (const header of [tag, `"x", W/${tag}`, '*']) {
      const answer = await request(app()).get('/json').set('If-None-Match', header).expect(304);
      expect(answer.text).toBe('');
      expect(answer.headers.etag).toBe(tag);
      expect(answer.headers['ratelimit-remaining']).toBe('41');
      expect(answer.headers['content-type']).toBeUndefined();
      expect(answer.headers['content-length']).toBeUndefined();
    }
  });

  it('answers 200 when the client holds another tag', async () => {
    const answer = await request(app()).get('/json').set('If-None-Match', '"stale"').expect(200);
    expect(answer.text).toBe(TEXT);
  });

  it('tags HEAD like GET and answers it 304 too', async () => {
    const head = await request(app()).head('/json').expect(200);
    expect(head.headers.etag).toBe(tag);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(TEXT)));
    await request(app()).head('/json').set('If-None-Match', tag).expect(304);
  });

  it('leaves errors, other statuses, non-JSON answers and other methods alone', async () => {
    for (const path of ['/missing', '/created', '/plain']) {
      const answer = await request(app()).get(path).set('If-None-Match', '*');
      expect(answer.status).not.toBe(304);
      expect(answer.headers.etag).toBeUndefined();
    }
    const post = await request(app()).post('/json').set('If-None-Match', '*').expect(200);
    expect(post.headers.etag).toBeUndefined();
  });

  it('sends a prepared answer as the same bytes and headers as its text, with the tag it carries', async () => {
    const text = await request(app()).get('/prepared-text').expect(200);
    const prepared = await request(app()).get('/prepared').expect(200);
    expect(PREPARED.tag).toBe(entityTag(PREPARED_TEXT));
    expect(prepared.text).toBe(PREPARED_TEXT);
    for (const header of ['etag', 'cache-control', 'content-type', 'content-length', 'ratelimit-remaining']) {
      expect(prepared.headers[header]).toBe(text.headers[header]);
    }
    expect(prepared.headers['content-length']).toBe(String(PREPARED.bytes.length));
    const held = await request(app()).get('/prepared').set('If-None-Match', PREPARED.tag).expect(304);
    expect(held.text).toBe('');
    expect(held.headers.etag).toBe(PREPARED.tag);
    const head = await request(app()).head('/prepared').expect(200);
    expect(head.headers.etag).toBe(PREPARED.tag);
    const missing = await request(app()).get('/prepared-404').set('If-None-Match', '*').expect(404);
    expect(missing.text).toBe(PREPARED_TEXT);
    expect(missing.headers.etag).toBeUndefined();
  });

  it('changes only the application it was installed on', async () => {
    const other = express();
    other.get('/json', (_req, res) => void res.json(BODY));
    const answer = await request(other).get('/json').expect(200);
    expect(answer.headers.etag).toMatch(/^W\//);
  });
});
