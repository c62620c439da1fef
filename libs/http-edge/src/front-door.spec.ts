import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import express, { type Express } from 'express';
import request from 'supertest';
import { type FirstStep, type FrontDoor, installFrontDoor } from './front-door';

describe('installFrontDoor', () => {
  let app: Express;
  let server: Server;
  let stepRuns: string[];
  let consulted: string[];
  const step: FirstStep = (req, res, next) => {
    stepRuns.push(req.url ?? '');
    res.setHeader('X-Step', 'ran');
    next();
  };

  beforeEach(() => {
    stepRuns = [];
    consulted = [];
    app = express();
    app.use(step);
    app.get('/pass', (_req, res) => {
      res.json({ from: 'app' });
    });
    app.all('/take', (_req, res) => {
      res.json({ from: 'app' });
    });
    server = createServer(app);
  });

  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const door: FrontDoor = (incoming, pass, take) => {
    consulted.push(incoming.url ?? '');
    if (!incoming.url?.startsWith('/take')) return pass();
    const { request: taken, response } = take();
    response.status(200).json({ from: 'door', baseUrl: taken.baseUrl, originalUrl: taken.originalUrl });
  };

  it('answers what the door takes, after the first steps and with Express’s response', async () => {
    installFrontDoor(server, app, [step], door);
    const answer = await request(server).get('/take?x=1').expect(200);
    expect(answer.body).toEqual({ from: 'door', baseUrl: '', originalUrl: '/take?x=1' });
    expect(answer.headers['x-step']).toBe('ran');
    expect(answer.headers['x-powered-by']).toBe('Express');
    expect(stepRuns).toEqual(['/take?x=1']);
  });

  it('leaves what the door passes to the application, whose steps run once', async () => {
    installFrontDoor(server, app, [step], door);
    const answer = await request(server).get('/pass').expect(200);
    expect(answer.body).toEqual({ from: 'app' });
    expect(consulted).toEqual(['/pass']);
    expect(stepRuns).toEqual(['/pass']);
  });

  it('never shows the door a request the edge would touch: other methods, bodies, no Host', async () => {
    installFrontDoor(server, app, [step], door);
    await request(server).post('/take').send({ a: 1 }).expect(200, { from: 'app' });
    await request(server).get('/take').set('Content-Length', '0').expect(200, { from: 'app' });
    // As the HTTP edge does, so the request reaches the listeners rather than Node's own 400.
    (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.end('GET /take HTTP/1.1\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw).toContain('{"from":"app"}');
    expect(consulted).toEqual([]);
  });

  it('refuses a server whose request listener is not the Express application', () => {
    const other = createServer(() => undefined);
    expect(() => installFrontDoor(other, app, [step], door)).toThrow(/not the HTTP server/);
  });

  it('leaves a request to the application when the door throws, before or after taking it', async () => {
    installFrontDoor(server, app, [step], (incoming, _pass, take) => {
      if (incoming.url === '/pass?taken') take();
      throw new Error('the door failed');
    });
    await request(server).get('/pass').expect(200, { from: 'app' });
    await request(server).get('/pass?taken').expect(200, { from: 'app' });
  });

  it('lets no throw of a door that passed reach the application twice', async () => {
    let answers = 0;
    app.get('/counted', (_req, res) => {
      answers += 1;
      res.json({ answers });
    });
    installFrontDoor(server, app, [step], (_incoming, pass) => {
      pass();
      throw new Error('the door failed after passing');
    });
    await request(server).get('/counted').expect(200, { answers: 1 });
    expect(answers).toBe(1);
  });

  it('refuses to take a request when a first step does not go on at once', async () => {
    const stalled: FirstStep = () => undefined;
    let failure: unknown;
    installFrontDoor(server, app, [stalled], (_incoming: IncomingMessage, pass, take) => {
      try {
        take();
      } catch (error) {
        failure = error;
      }
      pass();
    });
    await request(server).get('/pass').expect(200);
    expect(String(failure)).toMatch(/did not go on at once/);
  });
});
