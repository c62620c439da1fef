import { AllMatchesRequestDto, MatchRequestDto, SubscribeRequestDto } from './book-request.dto';
import { frameProblem } from '../../../../test/support/frame-problem';

describe('odds stream requests', () => {
  it.each([
    [MatchRequestDto, { action: 'subscribe', match: '100' }, 'invalid match: expected an integer'],
    [MatchRequestDto, { action: 'subscribe' }, 'missing field: match'],
    [AllMatchesRequestDto, { action: 'subscribe_all', sport: 1.5 }, 'invalid sport: expected an integer'],
    [SubscribeRequestDto, { match: 1, resume_after: 'x' }, 'invalid resume_after: expected an integer'],
    [
      SubscribeRequestDto,
      { match: 1, conflate_ms: 10_001 },
      'invalid conflate_ms: expected an integer from 0 to 10000',
    ],
    [
      AllMatchesRequestDto,
      { action: 'subscribe_all', conflate_ms: -1 },
      'invalid conflate_ms: expected an integer from 0 to 10000',
    ],
  ])('names the problem of %p %p', async (metatype, frame, problem) => {
    expect(await frameProblem(metatype, frame)).toBe(problem);
  });

  it('accepts a match id and subscribe_all with or without a sport', async () => {
    expect(await frameProblem(MatchRequestDto, { action: 'subscribe', match: 100 })).toBeUndefined();
    expect(await frameProblem(AllMatchesRequestDto, { action: 'subscribe_all' })).toBeUndefined();
    expect(await frameProblem(AllMatchesRequestDto, { action: 'subscribe_all', sport: 29 })).toBeUndefined();
    const follow = { resume_after: 81234, conflate_ms: 250 };
    expect(await frameProblem(SubscribeRequestDto, { match: 100, ...follow })).toBeUndefined();
    expect(await frameProblem(AllMatchesRequestDto, { sport: 29, ...follow })).toBeUndefined();
  });
});
