import { createHash } from 'node:crypto';
import { clientHolds, entityTag, parseIfNoneMatch } from './entity-tag';

describe('entityTag', () => {
  it('is the quoted base64url SHA-1 of the bytes sent', () => {
    const body = '{"name":"Zürich"}';
    const digest = createHash('sha1').update(Buffer.from(body, 'utf8')).digest('base64url');
    expect(entityTag(body)).toBe(`"${digest}"`);
    expect(entityTag(Buffer.from(body, 'utf8'))).toBe(entityTag(body));
  });

  it('is strong, and differs when a single byte differs', () => {
    expect(entityTag('[1]')).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(entityTag('{"a":1,"b":2}')).not.toBe(entityTag('{"b":2,"a":1}'));
  });
});

describe('parseIfNoneMatch', () => {
  it('reads a list of strong and weak tags, dropping the weak prefix', () => {
    expect(parseIfNoneMatch('"a", W/"b",  "c"')).toEqual(['"a"', '"b"', '"c"']);
  });

  it('keeps a comma that sits inside quotes', () => {
    expect(parseIfNoneMatch('"a,b", "c"')).toEqual(['"a,b"', '"c"']);
  });

  it('reads the star, also inside a list', () => {
    expect(parseIfNoneMatch('*')).toBe('*');
    expect(parseIfNoneMatch(' "a", *')).toBe('*');
  });

  it('tolerates unquoted tags, an unclosed quote, empty members and repeated headers', () => {
    expect(parseIfNoneMatch('abc, ,W/def')).toEqual(['"abc"', '"def"']);
    expect(parseIfNoneMatch('"abc')).toEqual(['"abc"']);
    expect(parseIfNoneMatch(['"a"', '"b"'])).toEqual(['"a"', '"b"']);
    expect(parseIfNoneMatch('')).toEqual([]);
    expect(parseIfNoneMatch(undefined)).toEqual([]);
  });
});

describe('clientHolds', () => {
  const tag = entityTag('{"id":1}');

  it('matches the tag alone, in a list, as a weak tag, and the star', () => {
    expect(clientHolds(tag, tag)).toBe(true);
    expect(clientHolds(`"other", ${tag}`, tag)).toBe(true);
    expect(clientHolds(`W/${tag}`, tag)).toBe(true);
    expect(clientHolds('*', tag)).toBe(true);
  });

  it('does not match another tag, a part of it, or no header', () => {
    expect(clientHolds('"other"', tag)).toBe(false);
    expect(clientHolds(tag.slice(0, -2) + '"', tag)).toBe(false);
    expect(clientHolds('', tag)).toBe(false);
    expect(clientHolds(undefined, tag)).toBe(false);
  });
});
