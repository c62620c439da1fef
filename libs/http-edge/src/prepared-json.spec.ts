import { entityTag } from './entity-tag';
import { PreparedJson } from './prepared-json';

describe('PreparedJson', () => {
  const text = JSON.stringify({ id: 8, name: 'Bayern München' });

  it('holds the UTF-8 bytes of its text and their tag', () => {
    const prepared = new PreparedJson(text);
    expect(prepared.bytes.equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect(prepared.tag).toBe(entityTag(text));
  });

  // A cache of answers holds thousands of them (an odds book's answer per match): each is held
  // once, as the bytes it is sent as, not also as the text it was built from.
  it('does not keep its text besides its bytes', () => {
    const prepared = new PreparedJson(text);
    expect(Object.values(prepared)).not.toContain(text);
  });
});
