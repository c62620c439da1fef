import fc from 'fast-check';
import { drain } from '../common/work-in-parts';
import { parseJsonInParts } from './json-in-parts';

const encoder = new TextEncoder();

/** Steps of the parse: 1 when it ran in one go. */
function parsedInParts(text: string, key: string, partBytes: number): { value: unknown; steps: number } {
  const parts = parseJsonInParts(encoder.encode(text), key, partBytes);
  let steps = 1;
  for (;;) {
    const step = parts.next();
    if (step.done) return { value: step.value, steps };
    steps++;
  }
}

/** What JSON.parse answers for the text: its value or its error's message. */
function outcome(parse: () => unknown): { value?: unknown; error?: string } {
  try {
    return { value: parse() };
  } catch (error) {
    return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

const element = fc.jsonValue({ maxDepth: 3 });
const answer = fc.record({
  last: fc.integer(),
  markets: fc.array(element, { maxLength: 40 }),
  withdrawn: fc.array(element, { maxLength: 3 }),
});

describe('parseJsonInParts', () => {
  it('answers what JSON.parse answers for generated bodies, cut into many slices', () => {
    fc.assert(
      fc.property(answer, fc.integer({ min: 1, max: 64 }), fc.boolean(), (body, partBytes, pretty) => {
        const text = JSON.stringify(body, null, pretty ? 2 : undefined);
        expect(parsedInParts(text, 'markets', partBytes).value).toEqual(JSON.parse(text));
      }),
      { numRuns: 400 },
    );
  });

  it('throws JSON.parse own error, or answers its value, for damaged bodies', () => {
    const damaged = fc
      .tuple(answer, fc.nat(), fc.constantFrom('', ',', ']', '[', '{', '}', '"', '\\', ' ', ':', 'x'))
      .map(([body, at, insert]) => {
        const text = JSON.stringify(body);
        const cut = at % (text.length + 1);
        // Either replace the character at `cut` or insert before it.
        return at % 2 === 0
          ? text.slice(0, cut) + insert + text.slice(cut + 1)
          : text.slice(0, cut) + insert + text.slice(cut);
      });
    fc.assert(
      fc.property(damaged, fc.integer({ min: 1, max: 32 }), (text, partBytes) => {
        const expected = outcome(() => JSON.parse(text));
        expect(outcome(() => parsedInParts(text, 'markets', partBytes).value)).toEqual(expected);
      }),
      { numRuns: 2_000 },
    );
  });

  it.each([
    ['a trailing comma', '{"markets":[1,2,],"last":1}'],
    ['a leading comma', '{"markets":[,1,2],"last":1}'],
    ['two commas', '{"markets":[1,,2],"last":1}'],
    ['an array that never closes', '{"markets":[1,2,3'],
    ['a brace closing the array', '{"markets":[1,2}'],
    ['text after the body', '{"markets":[1,2],"last":1} x'],
  ])('throws JSON.parse own error for %s', (_, text) => {
    expect(outcome(() => parsedInParts(text, 'markets', 1).value)).toEqual(outcome(() => JSON.parse(text)));
    expect(outcome(() => JSON.parse(text)).error).toBeDefined();
  });

  it.each([
    ['a later duplicate member, which wins', '{"markets":[1,2,3],"last":1,"markets":[]}'],
    ['an earlier duplicate member, which loses', '{"markets":7,"last":1,"markets":[1,2,3]}'],
    ['an escaped member name', '{"\\u006darkets":[1,2,3],"last":1}'],
    ['the name inside a nested object', '{"other":{"markets":[1,2,3]},"markets":[4,5,6]}'],
    [
      'strings holding commas, brackets and escaped quotes',
      '{"markets":["a,]", "\\"],[", {"k":"\\\\"}, [1,[2]]]}',
    ],
    ['no such member', '{"last":1,"other":[1,2,3]}'],
    ['a top-level array', '[1,2,3,4,5,6,7,8]'],
    ['an empty array', '{"markets":[  ],"last":1}'],
    ['a byte-order mark', '\ufeff{"markets":[1,2,3],"last":1}'],
  ])('answers what JSON.parse answers for %s', (_, text) => {
    const expected = JSON.parse(text.replace(/^\ufeff/, '')) as unknown;
    expect(parsedInParts(text, 'markets', 1).value).toEqual(expected);
  });

  it('cuts strings holding escapes, commas and brackets without falling back to one whole parse', () => {
    const markets = ['a,]', '"],[', '\\', '\\"', { k: '\\\\"]' }, [1, [2, ',']], '\u2028,'];
    const text = JSON.stringify({ markets, last: 3 });
    const parse = jest.spyOn(JSON, 'parse');
    try {
      expect(parsedInParts(text, 'markets', 1).value).toEqual({ markets, last: 3 });
      const longest = Math.max(...parse.mock.calls.map(([argument]) => argument.length));
      expect(longest).toBeLessThan(text.length);
    } finally {
      parse.mockRestore();
    }
  });

  it('parses a big array a slice at a time, each slice near the size asked for', () => {
    const markets = Array.from({ length: 5_000 }, (_, i) => ({ key: `s;0;m;${i}`, prices: [1.5, 2.5] }));
    const text = JSON.stringify({ last: 9, markets });
    const partBytes = 16 * 1024;
    const { value, steps } = parsedInParts(text, 'markets', partBytes);
    expect(value).toEqual({ last: 9, markets });
    // One yield per slice cut at a comma past `partBytes`: neither one big slice nor thousands of tiny ones.
    expect(steps).toBeGreaterThanOrEqual(Math.floor(text.length / (partBytes + 64)));
    expect(steps).toBeLessThanOrEqual(Math.ceil(text.length / partBytes) + 1);
  });

  it('parses a body no bigger than one slice in one go', () => {
    expect(parsedInParts('{"markets":[1,2,3]}', 'markets', 1024).steps).toBe(1);
    expect(drain(parseJsonInParts(encoder.encode('{"markets":[1,2,3]}'), 'markets'))).toEqual({
      markets: [1, 2, 3],
    });
  });
});
