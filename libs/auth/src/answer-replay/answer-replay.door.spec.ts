import type { IncomingMessage } from 'node:http';
import { Logger } from '@nestjs/common';
import { PreparedJson } from '@app/http-edge';
import type { AuthService } from '../auth.service';
import { anOddsPrincipal } from '../../../../test/odds-passthrough/principal-factory';
import { AnswerFreshness } from './answer-freshness';
import { AnswerReplay, type RecordedAnswer } from './answer-replay';
import { AnswerReplayDoor } from './answer-replay.door';
import { FirstAnswers } from './first-answers';

const KEY = 'sk_door-spec-key-0000000000000000';
const TARGET = '/v1/book/odds?match=1';

const principal = anOddsPrincipal([29]);

const answer = (): RecordedAnswer => ({
  json: new PreparedJson('{"match_id":1}'),
  contentType: 'application/json; charset=utf-8',
  route: { path: '/v1/book/odds' },
});

class Freshness extends AnswerFreshness {
  fresh: (json: PreparedJson) => boolean = () => true;
  isFresh(json: PreparedJson): boolean {
    return this.fresh(json);
  }
}

class OneTarget extends FirstAnswers {
  build: () => RecordedAnswer | undefined = answer;
  claims(url: string): boolean {
    return url === TARGET;
  }
  answer(): RecordedAnswer | undefined {
    return this.build();
  }
}

/** One request through the door: resolves with what the door did with it. */
function visit(door: AnswerReplayDoor, url = TARGET): Promise<{ passed: boolean; sent?: unknown }> {
  const request = { url, headers: { 'x-api-key': KEY } } as unknown as IncomingMessage;
  return new Promise((resolve) => {
    const response = {
      status: () => response,
      setHeader: () => response,
      send: (body: unknown) => resolve({ passed: false, sent: body }),
      destroy: () => resolve({ passed: false }),
    };
    door.visit(
      request,
      () => resolve({ passed: true }),
      () => ({ request: request as never, response: response as never }),
    );
  });
}

function setup() {
  const replay = new AnswerReplay();
  const freshness = new Freshness();
  const first = new OneTarget();
  const identify = jest.fn(() => Promise.resolve(principal));
  const auth = { identify } as unknown as AuthService;
  const door = new AnswerReplayDoor(replay, freshness, auth, undefined, undefined, first);
  return { replay, freshness, first, identify, door };
}

describe('AnswerReplayDoor', () => {
  beforeEach(() => jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('answers a claimed target the first time, records it, and replays it while it is fresh', async () => {
    const { door, replay, first } = setup();
    const built = answer();
    first.build = () => built;
    expect(await visit(door)).toEqual({ passed: false, sent: built.json });
    expect(replay.find(TARGET, principal)).toBe(built);
    first.build = () => undefined;
    expect(await visit(door)).toEqual({ passed: false, sent: built.json });
  });

  it('passes what it neither recorded nor claims without looking the key up', async () => {
    const { door, identify } = setup();
    expect(await visit(door, '/v1/book/odds?match=2')).toEqual({ passed: true });
    expect(identify).not.toHaveBeenCalled();
  });

  it('passes a claimed target the app does not answer', async () => {
    const { door, first } = setup();
    first.build = () => undefined;
    expect(await visit(door)).toEqual({ passed: true });
  });

  it('passes the request to the pipeline when finding its answer fails, instead of dropping it', async () => {
    const { door, first, freshness, replay } = setup();
    first.build = () => {
      throw new Error('replica unreadable');
    };
    expect(await visit(door)).toEqual({ passed: true });

    const recorded = answer();
    replay.remember(TARGET, principal, recorded);
    freshness.fresh = () => {
      throw new Error('freshness unreadable');
    };
    expect(await visit(door)).toEqual({ passed: true });
  });
});
