import { parseClientFrame, readAction } from './client-frame';

describe('client frames', () => {
  it('accepts a JSON object', () => {
    expect(parseClientFrame('{"action":"subscribe","match_id":1}')).toEqual({
      ok: true,
      value: { action: 'subscribe', match_id: 1 },
    });
  });

  it.each(['not json', '{"a":', ''])('names malformed JSON (%p)', (text) => {
    expect(parseClientFrame(text)).toEqual({
      ok: false,
      error: 'malformed JSON: the frame is not valid JSON',
    });
  });

  it.each(['[1]', '"subscribe"', '42', 'null'])('rejects JSON that is not an object (%p)', (text) => {
    expect(parseClientFrame(text)).toEqual({ ok: false, error: 'invalid frame: expected a JSON object' });
  });

  it('reads a known action and names missing, mistyped and unknown ones', () => {
    const known = ['subscribe', 'unsubscribe'] as const;
    expect(readAction({ action: 'subscribe' }, known)).toEqual({ ok: true, value: 'subscribe' });
    expect(readAction({}, known)).toEqual({ ok: false, error: 'missing field: action' });
    expect(readAction({ action: 3 }, known)).toEqual({
      ok: false,
      error: 'invalid action: expected a string',
    });
    expect(readAction({ action: 'dance' }, known)).toEqual({
      ok: false,
      error: 'unknown action: "dance" (expected subscribe, unsubscribe)',
    });
  });

  it('never echoes something that looks like a key, and cuts long actions short', () => {
    const result = readAction({ action: 'sk_abcdefghijklmnopqrstuvwxyz012345' }, ['subscribe']);
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).not.toContain('sk_abc');
    const long = readAction({ action: 'x'.repeat(500) }, ['subscribe']);
    expect(!long.ok && long.error.length).toBeLessThan(100);
  });
});
