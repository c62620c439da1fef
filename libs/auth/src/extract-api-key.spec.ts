import type { IncomingHttpHeaders } from 'node:http';
import { extractApiKey, queryKeyFromUrl } from './extract-api-key';

function headers(apiKey?: string | string[]): IncomingHttpHeaders {
  return apiKey === undefined ? {} : { 'x-api-key': apiKey };
}

describe('extractApiKey', () => {
  it('prefers the header over the query', () => {
    expect(extractApiKey(headers('sk_header'), 'sk_query')).toBe('sk_header');
  });

  it('uses the query when there is no header', () => {
    expect(extractApiKey(headers(), 'sk_query')).toBe('sk_query');
  });

  it('returns undefined when neither is given', () => {
    expect(extractApiKey(headers(), undefined)).toBeUndefined();
  });

  it.each(['', '   ', '\t'])('falls back to the query when the header is blank (%j)', (blank) => {
    expect(extractApiKey(headers(blank), 'sk_query')).toBe('sk_query');
  });

  it('treats a blank query like an absent one', () => {
    expect(extractApiKey(headers(), '  ')).toBeUndefined();
  });

  it('trims surrounding whitespace', () => {
    expect(extractApiKey(headers('  sk_header '), undefined)).toBe('sk_header');
  });

  it('takes the first of a repeated query parameter', () => {
    expect(extractApiKey(headers(), ['sk_first', 'sk_second'])).toBe('sk_first');
  });

  it('ignores query values that are not strings', () => {
    expect(extractApiKey(headers(), { nested: 'sk_hidden' })).toBeUndefined();
    expect(extractApiKey(headers(), [{ nested: 'sk_hidden' }, 'sk_second'])).toBeUndefined();
  });

  it('takes the first of headers given as a list', () => {
    expect(extractApiKey(headers(['sk_first', 'sk_second']), undefined)).toBe('sk_first');
  });
});

describe('queryKeyFromUrl', () => {
  it('takes the first key parameter of a URL', () => {
    expect(queryKeyFromUrl('/v1/stream?key=sk_a&key=sk_b')).toBe('sk_a');
  });

  it('finds the key among other parameters', () => {
    expect(queryKeyFromUrl('/v1/stream?sport=29&key=sk_a')).toBe('sk_a');
  });

  it('returns undefined without a query', () => {
    expect(queryKeyFromUrl('/v1/stream')).toBeUndefined();
  });

  it('returns undefined without a key parameter or URL', () => {
    expect(queryKeyFromUrl('/v1/stream?sport=29&monkey=1')).toBeUndefined();
    expect(queryKeyFromUrl(undefined)).toBeUndefined();
    expect(queryKeyFromUrl('')).toBeUndefined();
  });

  it('decodes URL-encoded values', () => {
    expect(queryKeyFromUrl('/v1/stream?key=sk_a%2Bb%2Fc%3D')).toBe('sk_a+b/c=');
    expect(queryKeyFromUrl('/v1/stream?key=sk%5Fabc')).toBe('sk_abc');
  });
});
