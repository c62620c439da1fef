import fc from 'fast-check';
import { serializeUpdateFrame } from './book-messages';
import { batchTexts, type MatchChange, readBatch } from './match-change-batch';

function change(seq: number, prevSeq: number | null, matchId = seq): MatchChange {
  return {
    position: { seq, prevSeq },
    text: serializeUpdateFrame(matchId, 29, 1_700_000_000_000, [], [`s;0;m;${matchId}`]),
  };
}

const onWire = (changes: readonly MatchChange[]) => changes.map(({ position, text }) => ({ position, text }));

describe('match change batches', () => {
  it('carries each change with its position, in order, and reads back what it wrote', () => {
    const changes = [change(5, null), change(6, 2), change(7, 5, 5)];
    const batches = batchTexts(changes);
    expect(batches).toHaveLength(1);
    expect(batches[0].text.split('\n')[1]).toBe(`6 2 ${changes[1].text}`);
    expect(readBatch(batches[0].text)).toEqual(onWire(changes));
  });

  it('closes a batch at its count or its length, never splitting a change', () => {
    const changes = Array.from({ length: 7 }, (_, index) => change(index + 1, null));
    expect(batchTexts(changes, { changes: 3, chars: 1_000_000 }).map((b) => b.changes.length)).toEqual([
      3, 3, 1,
    ]);
    const oneLine = `1 null ${changes[0].text}`.length;
    const byLength = batchTexts(changes, { changes: 100, chars: oneLine * 2 + 1 });
    expect(byLength.map((b) => b.changes.length)).toEqual([2, 2, 2, 1]);
    // A change longer than the limit still goes, alone.
    expect(batchTexts(changes.slice(0, 2), { changes: 100, chars: 10 }).map((b) => b.changes.length)).toEqual(
      [1, 1],
    );
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
        const changes = rows.map(({ seq, prevSeq, text }) => ({ position: { seq, prevSeq }, text }));
        const batches = batchTexts(changes, { changes: perBatch, chars: 4096 });
        expect(batches.flatMap((batch) => readBatch(batch.text) ?? [])).toEqual(changes);
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
