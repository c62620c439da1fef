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

  it('starts afresh past its bound of targets', () => {
    const replay = new AnswerReplay(2);
    const principal = {};
    replay.remember('/a', principal, answer('1'));
    replay.remember('/b', principal, answer('2'));
    replay.remember('/c', principal, answer('3'));
    expect(replay.size).toBe(1);
    expect(replay.find('/c', principal)).toBeDefined();
  });
});
