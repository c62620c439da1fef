import { rawRequest } from '../../support/raw-http';
import type { ServiceProcess } from '../../support/service-process';
import { type FrameTally, fuzzFrames, runFrames, type StreamProbe } from './fuzz-frames';
import { fuzzRequests, type FuzzSurface } from './fuzz-requests';
import { type RequestTally, runRequests } from './fuzz-run';

export interface FuzzTarget {
  readonly name: string;
  /** The field of the service's error bodies. */
  readonly field: 'detail' | 'error';
  readonly healthPath: string;
  readonly surface: FuzzSurface;
  readonly probe: StreamProbe;
}

/** FUZZ_SEED replays a run; FUZZ_REQUESTS and FUZZ_FRAMES change its size. */
export const fuzzSeed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);
const FRAMES = Number(process.env.FUZZ_FRAMES ?? 2_000);

/**
 * The fuzz tests of one running service: generated requests, generated
 * frames, then the process must still be alive and healthy. Prints a summary
 * line (`edge-fuzz {...}`) with the figures and the seed.
 */
export function fuzzService(start: () => Promise<{ service: ServiceProcess; target: FuzzTarget }>): void {
  let service: ServiceProcess;
  let target: FuzzTarget;
  let requests: RequestTally | undefined;
  let frames: FrameTally | undefined;

  beforeAll(async () => {
    ({ service, target } = await start());
  }, 90_000);

  afterAll(async () => {
    const summary = {
      service: target?.name,
      seed: fuzzSeed,
      requests: requests && {
        tried: requests.tried,
        byStatus: requests.byStatus,
        broken: requests.failureCount,
      },
      frames: frames && {
        tried: frames.tried,
        answeredWithErrorFrame: frames.answered,
        socketsClosedByCode: frames.closedByCode,
        healthySockets: frames.healthySockets,
        usableAtEnd: frames.usableAtEnd,
      },
    };
    console.log(`edge-fuzz ${JSON.stringify(summary)}`);
    // A process that died says why only in its own output; CI keeps no other copy of it.
    if (service && (service.child.exitCode !== null || service.child.signalCode !== null)) {
      console.log(`edge-fuzz: the service exited; its output ends:\n${service.output().slice(-6000)}`);
    }
    await service?.stop();
  });

  it(`answers ${REQUESTS} generated requests in the service's shape, never 5xx but 503 (seed in the summary)`, async () => {
    const generated = fuzzRequests(target.surface, fuzzSeed, REQUESTS);
    requests = await runRequests(service.port, generated, target.field, 16);
    expect({ seed: fuzzSeed, broken: requests.failureCount, examples: requests.failures }).toEqual({
      seed: fuzzSeed,
      broken: 0,
      examples: [],
    });
    expect(requests.tried).toBe(REQUESTS);
  }, 120_000);

  it(`keeps every socket usable through ${FRAMES} generated frames but those it must close`, async () => {
    const generated = fuzzFrames(fuzzSeed, FRAMES);
    const url = `${service.url.replace('http', 'ws')}${target.surface.streamPath}?key=${target.surface.key}`;
    frames = await runFrames(url, generated, target.probe);
    expect({ seed: fuzzSeed, failures: frames.failures }).toEqual({ seed: fuzzSeed, failures: [] });
    expect(frames.usableAtEnd).toBe(frames.healthySockets);
    expect(frames.tried).toBe(FRAMES);
  }, 120_000);

  it('is alive and healthy afterwards', async () => {
    const health = await rawRequest(
      service.port,
      `GET ${target.healthPath} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(health.status).toBe(200);
    expect(service.child.exitCode).toBeNull();
    expect(service.child.signalCode).toBeNull();
  });
}
