import { deferredFrame, type OutgoingFrame, OutgoingQueue } from './outgoing-queue';

function frame(text: string, key?: string, meta?: string): OutgoingFrame<string> {
  return { data: Buffer.from(text), key, meta };
}

function drain<M>(queue: OutgoingQueue<M>): string[] {
  const texts: string[] = [];
  for (let next = queue.shift(); next; next = queue.shift()) texts.push(next.data.toString());
  return texts;
}

describe('OutgoingQueue', () => {
  it('keeps unkeyed frames in order and counts their bytes', () => {
    const queue = new OutgoingQueue();
    queue.push(frame('aa'));
    queue.push(frame('bbb'));
    expect(queue.length).toBe(2);
    expect(queue.bytes).toBe(5);
    expect(drain(queue)).toEqual(['aa', 'bbb']);
    expect(queue.bytes).toBe(0);
  });

  it('replaces a waiting frame of the same key by the newest, keeping its place', () => {
    const queue = new OutgoingQueue();
    queue.push(frame('m1-v1', 'm1'));
    queue.push(frame('m2-v1', 'm2'));
    queue.push(frame('m1-v2-longer', 'm1'));
    expect(queue.length).toBe(2);
    expect(queue.bytes).toBe('m1-v2-longer'.length + 'm2-v1'.length);
    expect(drain(queue)).toEqual(['m1-v2-longer', 'm2-v1']);
  });

  it('hands both frames to the conflation hook and queues what it returns', () => {
    const queue = new OutgoingQueue<string>((pending, next) =>
      frame(`${pending.meta ?? ''}+${next.meta ?? ''}`, next.key, `${pending.meta ?? ''}+${next.meta ?? ''}`),
    );
    queue.push(frame('x', 'k', 'a'));
    queue.push(frame('y', 'k', 'b'));
    queue.push(frame('z', 'k', 'c'));
    expect(drain(queue)).toEqual(['a+b+c']);
  });

  it('starts a new slot for a key once its frame has left the queue', () => {
    const queue = new OutgoingQueue();
    queue.push(frame('first', 'k'));
    expect(queue.shift()?.data.toString()).toBe('first');
    queue.push(frame('second', 'k'));
    queue.push(frame('third', 'k'));
    expect(drain(queue)).toEqual(['third']);
  });

  it('stays correct across many pushes and shifts', () => {
    const queue = new OutgoingQueue();
    const seen: string[] = [];
    for (let i = 0; i < 5000; i += 1) {
      queue.push(frame(`f${i}`));
      if (i % 3 === 0) seen.push(queue.shift()?.data.toString() ?? 'none');
    }
    seen.push(...drain(queue));
    expect(seen).toEqual(Array.from({ length: 5000 }, (_, i) => `f${i}`));
    expect(queue.bytes).toBe(0);
  });

  it('counts a deferred frame by its stated size and builds its bytes only when read', () => {
    const queue = new OutgoingQueue();
    let encoded = 0;
    const deferred = deferredFrame({ key: 'k', byteLength: 40 }, () => {
      encoded += 1;
      return Buffer.from('built');
    });
    queue.push(frame('waiting', 'k'));
    queue.push(deferred);
    expect(queue.bytes).toBe(40);
    expect(encoded).toBe(0);
    expect(queue.shift()?.data.toString()).toBe('built');
    expect(queue.bytes).toBe(0);
    expect(deferred.data.toString()).toBe('built');
    expect(encoded).toBe(1);
  });
});
