import { PreparedJson } from '@app/http-edge';
import { AnswerReplay, type RecordedAnswer } from './answer-replay';

const answer = (text: string): RecordedAnswer => ({
  json: new PreparedJson(text),
  contentType: 'application/json; charset=utf-8',
  route: { path: '/v1/matches' },
});

describe('AnswerReplay', () => {
  it('gives an answer back only for the same target and the same principal object', () => {
    const replay = new AnswerReplay();
    const alice = {};
    const page = answer('[1]');
    replay.remember('/v1/matches?league=1', alice, page);
    expect(replay.knows('/v1/matches?league=1')).toBe(true);
    expect(replay.find('/v1/matches?league=1', alice)).toBe(page);
    expect(replay.find('/v1/matches?league=1', {})).toBeUndefined();
    expect(replay.find('/v1/matches?league=2', alice)).toBeUndefined();
    expect(replay.knows('/v1/matches?league=2')).toBe(false);
  });

  it("keeps several principals' answers per target and replaces a principal's own", () => {
    const replay = new AnswerReplay();
    const principals = Array.from({ length: 9 }, () => ({}));
    principals.forEach((principal, i) => replay.remember('/u', principal, answer(`[${i}]`)));
    expect(replay.find('/u', principals[0])).toBeUndefined();
    expect(replay.find('/u', principals[8])?.json.bytes.toString()).toBe('[8]');
    replay.remember('/u', principals[8], answer('[9]'));
    expect(replay.find('/u', principals[8])?.json.bytes.toString()).toBe('[9]');
    expect(replay.find('/u', principals[1])?.json.bytes.toString()).toBe('[1]');
  });

  it('forgets the targets least recently recorded past its bound of targets', () => {
    const replay = new AnswerReplay({ maxUrls: 2 });
    const principal = {};
    replay.remember('/a', principal, answer('1'));
    replay.remember('/b', principal, answer('2'));
    replay.remember('/a', principal, answer('1'));
    replay.remember('/c', principal, answer('3'));
    expect(replay.size).toBe(2);
    expect(replay.knows('/b')).toBe(false);
    expect(replay.find('/a', principal)).toBeDefined();
    expect(replay.find('/c', principal)).toBeDefined();
  });

  it('holds no more answer bytes than its budget, whatever the answers weigh', () => {
    // An odds answer of a 40-market match weighs about 17 KB: a client walking a book of 2,500
    // matches left 43 MB of answers held, most of them stale once their match changed.
    const replay = new AnswerReplay({ maxBytes: 100_000 });
    const principals = [{}, {}];
    for (let target = 0; target < 40; target++) {
      for (const principal of principals) {
        replay.remember(`/odds?match=${target}`, principal, answer(`"${'x'.repeat(10_000)}"`));
      }
    }
    expect(replay.bytes).toBeLessThanOrEqual(100_000);
    expect(replay.bytes).toBeGreaterThan(80_000);
    expect(replay.find('/odds?match=39', principals[1])).toBeDefined();
    expect(replay.find('/odds?match=0', principals[0])).toBeUndefined();

    const crowded = new AnswerReplay({ maxBytes: 25_000 });
    const keys = Array.from({ length: 5 }, () => ({}));
    for (const key of keys) crowded.remember('/odds?match=1', key, answer(`"${'x'.repeat(10_000)}"`));
    expect(crowded.bytes).toBe(20_004);
    expect(crowded.find('/odds?match=1', keys[4])).toBeDefined();
    expect(crowded.find('/odds?match=1', keys[2])).toBeUndefined();
  });

  it('counts an answer replaced for the same principal once', () => {
    const replay = new AnswerReplay({ maxBytes: 1_000_000 });
    const principal = {};
    for (let i = 0; i < 10; i++) replay.remember('/u', principal, answer(`"${'y'.repeat(999)}"`));
    expect(replay.bytes).toBe(1001);
    for (let i = 0; i < 9; i++) replay.remember('/u', {}, answer('[1]'));
    expect(replay.bytes).toBe(8 * 3);
  });

  it('never holds an answer bigger than its whole budget', () => {
    const replay = new AnswerReplay({ maxBytes: 10 });
    replay.remember('/big', {}, answer('"0123456789"'));
    expect(replay.knows('/big')).toBe(false);
    expect(replay.bytes).toBe(0);
  });
});
