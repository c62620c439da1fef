import { redactKeys } from './redact';

describe('redactKeys', () => {
  it('hides key query values wherever they sit in a URL', () => {
    expect(redactKeys('Cannot GET /v1/x?key=abc&limit=2')).toBe('Cannot GET /v1/x?key=[redacted]&limit=2');
    expect(redactKeys('/v1/x?limit=2&KEY=sk_live_1')).toBe('/v1/x?limit=2&KEY=[redacted]');
  });

  it('hides anything shaped like a key', () => {
    expect(redactKeys('bad key sk_AbC-_9 here')).toBe('bad key [redacted] here');
  });

  it('leaves other text alone', () => {
    expect(redactKeys('/v1/matches?league=3&monkey=1')).toBe('/v1/matches?league=3&monkey=1');
  });
});
