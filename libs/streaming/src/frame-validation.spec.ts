import type { ValidationError } from '@nestjs/common';
import { frameProblem } from '../../../test/support/frame-problem';
import { FrameInteger, firstProblem } from './frame-validation';

class RequiredId {
  @FrameInteger()
  readonly match!: number;
}

class OptionalId {
  @FrameInteger({ optional: true })
  readonly sport?: number;
}

class TwoIds {
  @FrameInteger()
  readonly first!: number;

  @FrameInteger()
  readonly second!: number;
}

describe('frame validation', () => {
  it('accepts safe integers, negative ones included, and ignores fields it does not know', async () => {
    expect(await frameProblem(RequiredId, { action: 'subscribe', match: -3, extra: 'x' })).toBeUndefined();
    expect(await frameProblem(OptionalId, { action: 'subscribe_all' })).toBeUndefined();
    expect(await frameProblem(OptionalId, { sport: 29 })).toBeUndefined();
  });

  it.each([
    [{}, 'missing field: match'],
    [{ match: '7' }, 'invalid match: expected an integer'],
    [{ match: 1.5 }, 'invalid match: expected an integer'],
    [{ match: 2 ** 53 }, 'invalid match: expected an integer'],
    [{ match: null }, 'invalid match: expected an integer'],
    [{ match: [1] }, 'invalid match: expected an integer'],
    [{ match: true }, 'invalid match: expected an integer'],
    [{ match: {} }, 'invalid match: expected an integer'],
  ])('names the problem of a required id in %p', async (frame, problem) => {
    expect(await frameProblem(RequiredId, frame)).toBe(problem);
  });

  it('lets an optional id be left out but not sent as null or a fraction', async () => {
    expect(await frameProblem(OptionalId, { sport: null })).toBe('invalid sport: expected an integer');
    expect(await frameProblem(OptionalId, { sport: 1.5 })).toBe('invalid sport: expected an integer');
  });

  it('names the first bad field in declaration order', async () => {
    expect(await frameProblem(TwoIds, { second: 'x' })).toBe('missing field: first');
    expect(await frameProblem(TwoIds, { first: 1 })).toBe('missing field: second');
  });

  it('reads nested problems and falls back to a generic one', () => {
    const nested = { property: 'a', children: [{ property: 'b', constraints: { x: 'deep' }, children: [] }] };
    expect(firstProblem([nested as ValidationError])).toBe('deep');
    expect(firstProblem([])).toBe('invalid frame');
  });
});
