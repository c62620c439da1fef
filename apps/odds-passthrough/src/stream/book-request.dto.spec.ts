import { AllMatchesRequestDto, MatchRequestDto } from './book-request.dto';
import { frameProblem } from '../../../../test/support/frame-problem';

describe('odds stream requests', () => {
  it.each([
    [MatchRequestDto, { action: 'subscribe', match: '100' }, 'invalid match: expected an integer'],
    [MatchRequestDto, { action: 'subscribe' }, 'missing field: match'],
    [AllMatchesRequestDto, { action: 'subscribe_all', sport: 1.5 }, 'invalid sport: expected an integer'],
  ])('names the problem of %p %p', async (metatype, frame, problem) => {
    expect(await frameProblem(metatype, frame)).toBe(problem);
  });

  it('accepts a match id and subscribe_all with or without a sport', async () => {
    expect(await frameProblem(MatchRequestDto, { action: 'subscribe', match: 100 })).toBeUndefined();
    expect(await frameProblem(AllMatchesRequestDto, { action: 'subscribe_all' })).toBeUndefined();
    expect(await frameProblem(AllMatchesRequestDto, { action: 'subscribe_all', sport: 29 })).toBeUndefined();
  });
});
