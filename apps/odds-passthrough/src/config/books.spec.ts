import { resolveBooks } from './books';

describe('resolveBooks', () => {
  it('serves one book at /v1/book with grant book by default', () => {
    expect(resolveBooks('', 'http://sim:4000')).toEqual([
      { name: 'book', prefix: '/v1/book', grant: 'book', upstreamUrl: 'http://sim:4000' },
    ]);
  });

  it('reads several books, defaulting prefix, grant and upstream', () => {
    const books = resolveBooks(
      JSON.stringify([
        { name: 'book', upstream_url: 'http://a:1' },
        { name: 'other', prefix: '/v1/other-book', grant: 'other_grant' },
      ]),
      'http://sim:4000',
    );
    expect(books).toEqual([
      { name: 'book', prefix: '/v1/book', grant: 'book', upstreamUrl: 'http://a:1' },
      { name: 'other', prefix: '/v1/other-book', grant: 'other_grant', upstreamUrl: 'http://sim:4000' },
    ]);
  });

  it.each([
    ['not json', 'BOOKS must be a JSON array'],
    ['[]', 'BOOKS must be a non-empty JSON array'],
    ['[1]', 'BOOKS[0] must be an object'],
    ['[{"name":"Bad Name"}]', 'BOOKS[0].name is missing or malformed'],
    ['[{"name":"a","prefix":"v1/a"}]', 'BOOKS[0].prefix is missing or malformed'],
    ['[{"name":"a","upstream_url":"ftp://x"}]', 'BOOKS[0].upstream_url must be an http(s) URL'],
    ['[{"name":"a"},{"name":"a","prefix":"/v1/b"}]', 'BOOKS: every name must be unique'],
  ])('rejects %s', (value, message) => {
    expect(() => resolveBooks(value, 'http://sim:4000')).toThrow(message);
  });
});
