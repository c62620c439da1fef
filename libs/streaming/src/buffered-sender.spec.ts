import { BufferedSender, type FrameSink } from './buffered-sender';

/** A socket whose kernel buffer the test fills and empties by hand. */
class FakeSink implements FrameSink {
  bufferedAmount = 0;
  readonly written: string[] = [];
  private readonly callbacks: (() => void)[] = [];

  send(data: Buffer, options: { binary: boolean }, callback: (error?: Error) => void): void {
    expect(options.binary).toBe(false);
    this.written.push(data.toString());
    this.bufferedAmount += data.length;
    this.callbacks.push(() => callback());
  }

  /** The peer reads everything; every pending write completes. */
  flush(): void {
    this.bufferedAmount = 0;
    for (const callback of this.callbacks.splice(0)) callback();
  }
}

const frame = (text: string, key?: string) => ({ data: Buffer.from(text), key });

describe('BufferedSender', () => {
  const limits = { highWaterBytes: 10, maxQueuedBytes: 20 };

  it('writes straight through while the socket has room', () => {
    const sink = new FakeSink();
    const sender = new BufferedSender(sink, limits);
    expect(sender.send(frame('12345'))).toBe('sent');
    expect(sender.send(frame('12345'))).toBe('sent');
    expect(sink.written).toEqual(['12345', '12345']);
  });

  it('queues past the high-water mark and sends the queue in order once the socket drains', () => {
    const sink = new FakeSink();
    const sender = new BufferedSender(sink, limits);
    sender.send(frame('0123456789'));
    expect(sender.send(frame('a', 'x'))).toBe('queued');
    expect(sender.send(frame('b', 'y'))).toBe('queued');
    expect(sink.written).toEqual(['0123456789']);
    sink.flush();
    expect(sink.written).toEqual(['0123456789', 'a', 'b']);
    expect(sender.queuedFrames).toBe(0);
  });

  it('conflates waiting frames of the same key so a slow client gets only the latest', () => {
    const sink = new FakeSink();
    const sender = new BufferedSender(sink, limits);
    sender.send(frame('0123456789'));
    for (let i = 0; i < 100; i += 1) expect(sender.send(frame(`m1:${i}`, 'm1'))).toBe('queued');
    expect(sender.queuedFrames).toBe(1);
    sink.flush();
    expect(sink.written).toEqual(['0123456789', 'm1:99']);
  });

  it('reports overflow when the conflated queue is still past its bound, and stays overflowed', () => {
    const sink = new FakeSink();
    const sender = new BufferedSender(sink, limits);
    sender.send(frame('0123456789'));
    expect(sender.send(frame('aaaaaaaaaa', 'a'))).toBe('queued');
    expect(sender.send(frame('bbbbbbbbbb', 'b'))).toBe('queued');
    expect(sender.send(frame('c', 'c'))).toBe('overflow');
    expect(sender.queuedBytes).toBe(0);
    sink.flush();
    expect(sender.send(frame('d'))).toBe('overflow');
    expect(sink.written).toEqual(['0123456789']);
  });

  it('never reorders: a frame arriving while others wait goes behind them even if there is room', () => {
    const sink = new FakeSink();
    const sender = new BufferedSender(sink, { highWaterBytes: 10, maxQueuedBytes: 100 });
    sender.send(frame('0123456789'));
    sender.send(frame('first'));
    sink.bufferedAmount = 0;
    expect(sender.send(frame('second'))).toBe('sent');
    expect(sink.written).toEqual(['0123456789', 'first', 'second']);
  });
});
