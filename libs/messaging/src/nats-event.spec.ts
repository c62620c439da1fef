import { encodeEvent } from './nats-event.client';
import type { NatsLink } from './nats-link';
import { decodeEvent, NatsEventServer } from './nats-event.server';
import { qualifySubject, subjectMatches, unqualifySubject } from './subject-prefix';
import { bookOfSubject, DynamicSubjects, Subjects } from './subjects';

describe('NATS events on the wire', () => {
  it('sends frame bytes untouched and typed events as their JSON, with no envelope', () => {
    const frame = Buffer.from('{"type":"update","match_id":7}');
    expect(encodeEvent(frame)).toBe(frame);
    expect(Buffer.from(encodeEvent({ teamIds: ['a'] })).toString()).toBe('{"teamIds":["a"]}');
  });

  it('hands handlers the parsed payload of a typed subject, undefined when malformed', () => {
    const bytes = Buffer.from('{"change":"key","keyId":"k","at":"2026-11-25T00:00:00Z"}');
    expect(decodeEvent(Subjects.authKeysChanged, bytes)).toEqual({
      pattern: Subjects.authKeysChanged,
      data: { change: 'key', keyId: 'k', at: '2026-11-25T00:00:00Z' },
    });
    expect(decodeEvent(Subjects.authKeysChanged, Buffer.from('{nope'))).toEqual({
      pattern: Subjects.authKeysChanged,
      data: undefined,
    });
  });

  it('hands handlers the bytes of a frame subject as they came', () => {
    const bytes = Buffer.from('{"match_id":1}');
    expect(decodeEvent(DynamicSubjects.fixturesLiveAll, bytes).data).toBe(bytes);
  });

  it('prefixes subjects per deployment and reads the book back from a subject', () => {
    expect(qualifySubject('it_1', 'odds.book.match.29.7')).toBe('it_1.odds.book.match.29.7');
    expect(qualifySubject('', 'odds.book.health')).toBe('odds.book.health');
    expect(unqualifySubject('it_1', 'it_1.odds.other.catalog')).toBe('odds.other.catalog');
    expect(unqualifySubject('it_1', 'odds.book.health')).toBe('odds.book.health');
    expect(bookOfSubject('odds.other.match.29.7')).toBe('other');
  });

  it('matches subjects to subscription patterns as NATS does', () => {
    expect(subjectMatches('fixtures.live.>', 'fixtures.live.1.7')).toBe(true);
    expect(subjectMatches('fixtures.live.>', 'fixtures.live.1')).toBe(true);
    expect(subjectMatches('fixtures.live.>', 'fixtures.live')).toBe(false);
    expect(subjectMatches('fixtures.live.>', 'fixtures.lived.1')).toBe(false);
    expect(subjectMatches('odds.*.match.>', 'odds.book.match.29.7')).toBe(true);
    expect(subjectMatches('odds.*.health', 'odds.book.match')).toBe(false);
    expect(subjectMatches('odds.*.health', 'odds.book.health.x')).toBe(false);
    expect(subjectMatches('auth.keys.changed', 'auth.keys.changed')).toBe(true);
    expect(subjectMatches('auth.keys.changed', 'auth.keys')).toBe(false);
    expect(subjectMatches('auth.keys', 'auth.keys.changed')).toBe(false);
  });

  it('finds the handler of a subject pattern by its name, and an object pattern as Nest keys it', () => {
    const server = new NatsEventServer({} as NatsLink);
    const onMatch = jest.fn();
    const onCommand = jest.fn();
    server.addHandler('odds.*.match.>', onMatch, true);
    server.addHandler({ cmd: 'kits' }, onCommand, false);
    expect(server.getHandlerByPattern('odds.*.match.>')).toBe(onMatch);
    expect(server.getHandlerByPattern('{"cmd":"kits"}')).toBe(onCommand);
    expect(server.getHandlerByPattern('odds.*.health')).toBeNull();
  });
});
