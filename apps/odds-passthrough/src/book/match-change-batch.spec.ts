import fc from 'fast-check';
import { serializeUpdateFrame } from './book-messages';
import { batchPayloads, type EncodedMatchChange, type MatchChange, readBatch } from './match-change-batch';

function encoded(position: MatchChange['position'], text: string): EncodedMatchChange {
  return { position, text, bytes: Buffer.from(text, 'utf8') };
}

function change(seq: number, prevSeq: number | null, matchId = seq): EncodedMatchChange {
  return encoded(
    { seq, prevSeq },
    serializeUpdateFrame(matchId, 29, 1_700_000_000_000, [], [`s;0;m;${matchId}`]),
  );
}

const textOf = (batch: { bytes: Buffer }) => batch.bytes.toString('utf8');

const onWire = (changes: readonly MatchChange[]) => changes.map(({ position, text }) => ({ position, text }));

describe('match change batches', () => {
  it('carries each change with its position, in order, and reads back what it wrote', () => {
    const changes = [change(5, null), change(6, 2), change(7, 5, 5)];
    const batches = batchPayloads(changes);
    expect(batches).toHaveLength(1);
    expect(textOf(batches[0])).toBe(
      [`5 null ${changes[0].text}`, `6 2 ${changes[1].text}`, `7 5 ${changes[2].text}`].join('\n'),
    );
    expect(readBatch(textOf(batches[0]))).toEqual(onWire(changes));
  });

  it('closes a batch at its count or its length, never splitting a change', () => {
    const changes = Array.from({ length: 7 }, (_, index) => change(index + 1, null));
    expect(batchPayloads(changes, { changes: 3, bytes: 1_000_000 }).map((b) => b.changes.length)).toEqual([
      3, 3, 1,
    ]);
    const oneLine = `1 null ${changes[0].text}`.length;
    const byLength = batchPayloads(changes, { changes: 100, bytes: oneLine * 2 + 1 });
    expect(byLength.map((b) => b.changes.length)).toEqual([2, 2, 2, 1]);
    expect(byLength.map((b) => b.bytes.length)).toEqual([
      oneLine * 2 + 1,
      oneLine * 2 + 1,
      oneLine * 2 + 1,
      oneLine,
    ]);
    // A change longer than the limit still goes, alone.
    expect(
      batchPayloads(changes.slice(0, 2), { changes: 100, bytes: 10 }).map((b) => b.changes.length),
    ).toEqual([1, 1]);
  });

  it('counts the limit in bytes, as NATS does, not in characters', () => {
    // Two-byte and three-byte characters: 6 characters, 12 bytes of frame.
    const wide = encoded({ seq: 1, prevSeq: null }, '"éé€€"');
    const line = '1 null '.length + wide.bytes.length;
    expect(wide.bytes.length).toBe(12);
    const changes = [wide, encoded({ seq: 2, prevSeq: null }, '"éé€€"')];
    const batches = batchPayloads(changes, { changes: 100, bytes: line * 2 });
    expect(batches.map((b) => b.changes.length)).toEqual([1, 1]);
    expect(batchPayloads(changes, { changes: 100, bytes: line * 2 + 1 })).toHaveLength(1);
  });

  it('reads back every batch of generated changes, frames with spaces and escapes included', () => {
    const generated = fc.array(
      fc.record({
        seq: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        prevSeq: fc.option(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER })),
        text: fc.string({ unit: 'binary' }).map((value) => JSON.stringify({ type: 'update', value })),
      }),
      { minLength: 1, maxLength: 40 },
    );
    fc.assert(
      fc.property(generated, fc.integer({ min: 1, max: 10 }), (rows, perBatch) => {
        const changes = rows.map(({ seq, prevSeq, text }) => encoded({ seq, prevSeq }, text));
        const batches = batchPayloads(changes, { changes: perBatch, bytes: 4096 });
        expect(batches.flatMap((batch) => readBatch(textOf(batch)) ?? [])).toEqual(onWire(changes));
        for (const batch of batches) {
          const lines = batch.changes.map(
            (c) => `${c.position.seq} ${c.position.prevSeq ?? 'null'} ${c.text}`,
          );
          expect(textOf(batch)).toBe(lines.join('\n'));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a batch with a line that is not two positions and a frame', () => {
    const frame = change(1, null).text;
    for (const text of [
      '',
      frame,
      `1 ${frame}`,
      `0 null ${frame}`,
      `1 0 ${frame}`,
      `-1 null ${frame}`,
      `1.5 null ${frame}`,
      `9007199254740993 null ${frame}`,
      `1 nul ${frame}`,
      `1 null ${frame}\n`,
      `1 null ${frame}\n2 1`,
    ]) {
      expect(readBatch(text)).toBeUndefined();
    }
  });
});
