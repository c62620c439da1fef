import { positionColumns } from './book-rows';

describe('positionColumns', () => {
  it('lists ids, sequences and previous sequences in row order, an empty item for none', () => {
    expect(
      positionColumns([
        { matchId: 31, seq: 40, prevSeq: 12 },
        { matchId: 32, seq: 41, prevSeq: null },
        { matchId: 33, seq: null, prevSeq: null },
      ]),
    ).toEqual(['31,32,33', '40,41,', '12,,']);
  });

  it('writes sequences past 2^31 whole', () => {
    expect(positionColumns([{ matchId: 9_007_199_254, seq: 4_294_967_297, prevSeq: 4_294_967_296 }])).toEqual(
      ['9007199254', '4294967297', '4294967296'],
    );
  });
});
