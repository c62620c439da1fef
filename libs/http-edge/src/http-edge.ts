import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { parse } from 'node:url';
import { BadRequestException, HttpException, type INestApplication } from '@nestjs/common';
import { raw } from 'body-parser';
import { type BodyReadError, bodyFailure, bodyIsIgnored, DEFAULT_BODY_LIMIT_BYTES } from './body-policy';
import { closeGently } from './close-gently';
import { type ErrorField, rawJsonAnswer } from './edge-answer';
import { type ParserError, parserFailure } from './parser-failure';
import { serveAsPlainRequest } from './serve-as-request';

export interface HttpEdgeOptions {
  /** The field of the application's error bodies. */
  readonly errorField: ErrorField;
  readonly bodyLimitBytes?: number;
}

type Next = (error?: unknown) => void;

/**
 * Makes every answer a client can get from the application's HTTP server an
 * answer in the application's error shape: requests the HTTP parser refuses,
 * `CONNECT` and unknown `Expect` values (which Node answers or drops by
 * itself; here they are served as ordinary requests), and request bodies (read, decoded and bounded here, so a broken
 * one is a 4xx through the application's exception filter, not a 500).
 * Call it before the application starts listening, after the middleware that
 * should see every request (logs, metrics), on an application created with
 * `bodyParser: false`.
 */
export function installHttpEdge(app: INestApplication, options: HttpEdgeOptions): void {
  const server = app.getHttpServer() as Server;
  const field = options.errorField;
  // Node answers a missing Host with an empty 400 of its own; requireHost below answers it in the app's shape.
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
  server.on('clientError', answerParserFailure(field));
  // Before Express's own listener, so every layer (logs and metrics included) sees the same target.
  server.prependListener('request', keepRoutable);
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    serveAsPlainRequest(server, request, socket);
  });
  // An expectation other than 100-continue may be ignored; Node would answer an empty 417.
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    server.emit('request', request, response);
  });
  app.use(bodyGate(options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES));
  app.use(requireHost);
}

/** Targets Express parses with Node's legacy `url.parse` rather than its own fast path. */
const LEGACY_PARSED = /^[^/]|[\t\n\f\r #\u00a0\ufeff]/;

/**
 * Node's legacy URL parser reads backslashes as slashes and, in a target such
 * as `/\x#@y` or `//x#@y`, an authority where there is none, leaving no path:
 * Express's router then skips every layer, logs and metrics included, and
 * answers an HTML 404 itself. In `//a@[#` it finds a host it cannot parse and
 * throws, which in this listener would end the process. Either target is
 * escaped into a plain path that no route serves, so it is answered like any
 * other unknown path.
 */
function keepRoutable(request: IncomingMessage): void {
  const target = request.url;
  if (target === undefined || !LEGACY_PARSED.test(target) || legacyPathOf(target) !== null) return;
  request.url = `/${target.replace(/[^\w.~-]/g, (char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`)}`;
}

function legacyPathOf(target: string): string | null {
  try {
    return parse(target).pathname;
  } catch {
    return null;
  }
}

/** HTTP/1.1 requires a Host header; its absence is a client error. */
export function lacksRequiredHost(request: IncomingMessage): boolean {
  return request.httpVersion === '1.1' && request.headers.host === undefined;
}

function requireHost(request: IncomingMessage, _response: ServerResponse, next: Next): void {
  if (lacksRequiredHost(request)) return next(new BadRequestException('missing Host header'));
  next();
}

function answerParserFailure(field: ErrorField): (error: Error & ParserError, socket: Duplex) => void {
  // The parser keeps failing on whatever follows on the same connection; one answer is enough.
  const answered = new WeakSet<Duplex>();
  return (error, socket) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    const rejection = parserFailure(error);
    if (!rejection || !socket.writable || responseStarted(socket)) {
      socket.destroy();
      return;
    }
    socket.write(rawJsonAnswer(rejection.status, { [field]: rejection.message }, rejection.headers));
    closeGently(socket);
  };
}

/** Whether an earlier answer on this connection is being written (Node's own check before it answers). */
function responseStarted(socket: Duplex): boolean {
  return (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
}

/** Framed for a body, even an empty one: such a request is only complete once its body has been read. */
export function hasBody(request: IncomingMessage): boolean {
  return (
    request.headers['transfer-encoding'] !== undefined || request.headers['content-length'] !== undefined
  );
}

/**
 * No route of these services reads a body, but a body still has to be taken
 * off the connection before the answer, or the client may lose the answer.
 * Bodies of methods that give them no meaning are dropped unread; the others
 * are decoded, so a broken or unsupported encoding is reported as such.
 * Either way a body over the limit is a 413.
 */
function bodyGate(limit: number): (request: IncomingMessage, response: ServerResponse, next: Next) => void {
  const decode = raw({ type: () => true, limit, inflate: true });
  return function bodyGate(request, response, next) {
    if (!hasBody(request)) return next();
    if (bodyIsIgnored(request.method)) return discardBody(request, limit, next);
    decode(request, response, (error?: unknown) => {
      if (error === undefined) return next();
      const { status, message } = bodyFailure(error as BodyReadError, request.headers['content-encoding']);
      readOff(request, () => next(new HttpException(message, status)));
    });
  };
}

/**
 * Some refusals (an unsupported encoding) come before the body is read. Node
 * closes such a connection as soon as the answer is written, and the bytes the
 * client is still uploading would then make the kernel reset it, losing the
 * answer; so the rest of the body is read and dropped first, as body-parser
 * itself does for the refusals it reaches while reading.
 */
function readOff(request: IncomingMessage, then: () => void): void {
  if (request.complete || request.destroyed) return then();
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    then();
  };
  request.once('end', finish);
  request.once('close', finish);
  request.once('error', finish);
  request.resume();
}

function discardBody(request: IncomingMessage, limit: number, next: Next): void {
  let seen = 0;
  request.on('data', (chunk: Buffer) => (seen += chunk.length));
  request.once('error', () => next(new HttpException('request body aborted', 400)));
  request.once('end', () => (seen > limit ? next(new HttpException('request body too large', 413)) : next()));
}
