import { parseCricketScore } from './cricket-score';

describe('parseCricketScore', () => {
  it.each([
    ['245/6 (61.2)', 245, 6, '61.2'],
    ['0/0 (0.0)', 0, 0, '0.0'],
    ['12/1 (3)', 12, 1, '3'],
    ['312 (88.4)', 312, 10, '88.4'],
    ['98 (31.5)', 98, 10, '31.5'],
    ['412/8d (120.3)', 412, 8, '120.3'],
    ['412 & 245/6 (61.2)', 245, 6, '61.2'],
    ['412 & 245/6', 245, 6, '0'],
    [' 245 / 6 ( 61.2 ) ', 245, 6, '61.2'],
    ['245/6', 245, 6, '0'],
    ['180/10 (19.4)', 180, 10, '19.4'],
    ['180/11 (19.4)', 180, 10, '19.4'],
  ])('reads %j as %i/%i after %s overs', (raw, runs, wickets, overs) => {
    expect(parseCricketScore(raw)).toEqual({ runs, wickets, overs, raw });
  });

  it.each(['', '   ', 'Yet to bat', 'abc/def', '(12.3)', '/5', '&'])(
    'never throws on the odd string %j and keeps it raw',
    (raw) => {
      const score = parseCricketScore(raw);
      expect(score.raw).toBe(raw);
      expect(Number.isInteger(score.runs)).toBe(true);
      expect(Number.isInteger(score.wickets)).toBe(true);
      expect(typeof score.overs).toBe('string');
    },
  );

  it('reads the overs of an unreadable figure when they are there', () => {
    expect(parseCricketScore('DNB (12.3)')).toEqual({
      runs: 0,
      wickets: 0,
      overs: '12.3',
      raw: 'DNB (12.3)',
    });
  });
});
