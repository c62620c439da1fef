import { MatchRequestDto, SubscribeRequestDto } from './match-request.dto';
import { frameProblem } from '../../../../test/support/frame-problem';

describe('live stream requests', () => {
  it.each([
    [{ action: 'subscribe', match_id: '1' }, 'invalid match_id: expected an integer'],
    [{ action: 'subscribe' }, 'missing field: match_id'],
  ])('names the problem of %p', async (frame, problem) => {
    expect(await frameProblem(MatchRequestDto, frame)).toBe(problem);
  });

  it('accepts an integer match id', async () => {
    expect(await frameProblem(MatchRequestDto, { action: 'unsubscribe', match_id: 1042 })).toBeUndefined();
  });

  it.each([
    [{ resume_after: 'x' }, 'invalid resume_after: expected an integer'],
    [{ resume_after: null }, 'invalid resume_after: expected an integer'],
    [{ conflate_ms: -1 }, 'invalid conflate_ms: expected an integer from 0 to 10000'],
    [{ conflate_ms: 10_001 }, 'invalid conflate_ms: expected an integer from 0 to 10000'],
    [{ conflate_ms: 2.5 }, 'invalid conflate_ms: expected an integer from 0 to 10000'],
    [{ conflate_ms: '100' }, 'invalid conflate_ms: expected an integer from 0 to 10000'],
  ])('refuses a subscribe with %p', async (fields, problem) => {
    const frame = { action: 'subscribe', match_id: 1, ...fields };
    expect(await frameProblem(SubscribeRequestDto, frame)).toBe(problem);
  });

  it('accepts a subscribe with a position and a window at the bounds', async () => {
    for (const conflate_ms of [0, 10_000]) {
      const frame = { action: 'subscribe', match_id: 1, resume_after: 5, conflate_ms };
      expect(await frameProblem(SubscribeRequestDto, frame)).toBeUndefined();
    }
  });
});
