import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Logger } from '@nestjs/common';
import type { Express, Request, Response } from 'express';
import { redactKeys } from '@app/observability';
import { hasBody, lacksRequiredHost } from './http-edge';

/** A request a front door took: Node's own, with what Express's router would have set on it. */
export type TakenRequest = IncomingMessage & { route?: unknown; baseUrl: string; originalUrl: string };

/** Middleware every answer goes through, which must also run for what a front door answers. */
export type FirstStep = (
  request: TakenRequest,
  response: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/**
 * A front door looks at a request before Express does and either passes it
 * on (`pass`: the application answers it as if there were no door) or takes
 * it (`take`) and answers on the response `take` returns. It is called for
 * GETs only, and only for those the HTTP edge lets through unchanged (a Host
 * where HTTP/1.1 needs one, no body).
 */
export type FrontDoor = (
  request: IncomingMessage,
  pass: () => void,
  take: () => { request: TakenRequest; response: Response },
) => void;

/**
 * Answers some requests at the HTTP server, before Express's router: a
 * request the door takes is given what Express gives every request that its
 * answer relies on (the response's prototype, so `res.send` is Express's and
 * the conditional GET's, `X-Powered-By` when enabled, `req.res`, `res.req`,
 * `res.locals`, `originalUrl` and `baseUrl`) and then `firstSteps`, the
 * application's own middleware that every answer goes through (the request
 * log and metrics, CORS), each of which must go on synchronously for a GET
 * without a body. A page answered from memory needs neither Express 5's
 * router (a final handler and a walk through every layer per request) nor
 * Express's request prototype, which nothing on this path reads: switching
 * it cost more than the rest of the replay in the REST workload of `npm run
 * bench`, probably as Node's own request handling then sees requests of two shapes
 * (ADR 023). Call it after the application's middleware is installed; it
 * replaces Express's listener on the server, so anything prepended before it
 * (`keepRoutable`) still runs first.
 */
export function installFrontDoor(
  server: Server,
  express: Express,
  firstSteps: readonly FirstStep[],
  door: FrontDoor,
): void {
  const enter = express as unknown as (request: IncomingMessage, response: ServerResponse) => void;
  if (!server.listeners('request').includes(enter)) {
    throw new Error('installFrontDoor: Express is not the HTTP server’s request listener');
  }
  const visit = (request: IncomingMessage, response: ServerResponse): void => {
    if (!passesEdgeUnchanged(request)) return enter(request, response);
    let passed = false;
    const pass = () => {
      passed = true;
      enter(request, response);
    };
    try {
      door(request, pass, () => prepare(express, firstSteps, request, response));
    } catch (error) {
      // Thrown here, outside Express's error handling, a door's fault would end the process. The
      // application answers instead, in its own shape (a taken request's first steps run again).
      logger.error(
        `The front door failed: ${redactKeys(error instanceof Error ? error.message : String(error))}`,
      );
      if (passed) return;
      if (response.headersSent) response.destroy();
      else enter(request, response);
    }
  };
  server.removeListener('request', enter);
  server.on('request', visit);
}

const logger = new Logger('FrontDoor');

/** GETs that neither the body gate nor the Host check would touch. */
function passesEdgeUnchanged(request: IncomingMessage): boolean {
  return request.method === 'GET' && !lacksRequiredHost(request) && !hasBody(request);
}

function prepare(
  express: Express,
  firstSteps: readonly FirstStep[],
  incoming: IncomingMessage,
  outgoing: ServerResponse,
): { request: TakenRequest; response: Response } {
  if (express.enabled('x-powered-by')) outgoing.setHeader('X-Powered-By', 'Express');
  const response = Object.setPrototypeOf(outgoing, express.response) as Response;
  const request = Object.assign(incoming, { res: response, baseUrl: '', originalUrl: incoming.url ?? '/' });
  response.req = request as unknown as Request;
  response.locals ??= Object.create(null) as Response['locals'];
  for (const step of firstSteps) {
    let wentOn = false;
    void step(request, response, (error?: unknown) => {
      if (error !== undefined) throw error instanceof Error ? error : new Error('a first step failed');
      wentOn = true;
    });
    if (!wentOn) throw new Error('installFrontDoor: a first step did not go on at once for a plain GET');
  }
  return { request, response };
}
