import { BadRequestException } from '@nestjs/common';
import { idParam } from './query-params';

describe('idParam', () => {
  it('reads an integer, the first of repeated values', () => {
    expect(idParam({ sport: '29' }, 'sport')).toBe(29);
    expect(idParam({ sport: ['4', '29'] }, 'sport')).toBe(4);
    expect(idParam({}, 'sport')).toBeUndefined();
  });

  it.each([[''], ['abc'], ['1.5'], ['-3'], [' 4'], ['1e3'], ['9999999999999999']])('rejects %j', (value) => {
    expect(() => idParam({ match: value }, 'match')).toThrow(
      new BadRequestException('invalid parameter: match'),
    );
  });

  it('rejects a missing required parameter and a nested object', () => {
    expect(() => idParam({}, 'match', true)).toThrow('invalid parameter: match');
    expect(() => idParam({ match: { a: '1' } }, 'match')).toThrow('invalid parameter: match');
  });
});
