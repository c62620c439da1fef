import { type Conflate, type OutgoingFrame, OutgoingQueue } from './outgoing-queue';
import { StreamStats } from './stream-stats';

/** The part of a `ws` WebSocket the sender uses, so the policy can be tested without a network. */
export interface FrameSink {
  readonly bufferedAmount: number;
  send(data: Buffer, options: { binary: boolean }, callback: (error?: Error) => void): void;
}

export interface BufferLimits {
  /** Bytes the socket itself may hold unsent before frames wait in our own queue instead. */
  readonly highWaterBytes: number;
  /** Bytes our queue may hold after conflation; beyond it the client is too slow to keep. */
  readonly maxQueuedBytes: number;
}

export const DEFAULT_BUFFER_LIMITS: BufferLimits = {
  highWaterBytes: 256 * 1024,
  maxQueuedBytes: 1024 * 1024,
};

export type SendOutcome = 'sent' | 'queued' | 'overflow';

/**
 * Writes frames to one socket without letting a slow reader hold memory without
 * bound: while the socket's own buffer is past the high-water mark, frames wait
 * in a queue where frames of the same key conflate; when even the conflated
 * queue is past its bound, the caller is told to drop the client.
 */
export class BufferedSender<M = unknown> {
  /** Made when a frame first has to wait: a client that keeps up never needs one. */
  private queue?: OutgoingQueue<M>;
  /** Bound once, at the first write: a client never sent anything needs none. */
  private afterWrite?: (error?: Error) => void;
  private overflowed = false;

  constructor(
    private readonly sink: FrameSink,
    private readonly limits: BufferLimits = DEFAULT_BUFFER_LIMITS,
    private readonly conflate?: Conflate<M>,
    private readonly stats: StreamStats = new StreamStats(),
  ) {}

  get queuedFrames(): number {
    return this.queue?.length ?? 0;
  }

  get queuedBytes(): number {
    return this.queue?.bytes ?? 0;
  }

  send(frame: OutgoingFrame<M>): SendOutcome {
    if (this.overflowed) return 'overflow';
    if (this.queuedFrames === 0 && this.sink.bufferedAmount < this.limits.highWaterBytes) {
      this.write(frame);
      return 'sent';
    }
    const queue = (this.queue ??= new OutgoingQueue<M>(this.conflate));
    if (queue.push(frame)) this.stats.framesConflated += 1;
    this.pump();
    if (queue.bytes > this.limits.maxQueuedBytes) {
      this.overflowed = true;
      queue.clear();
      return 'overflow';
    }
    return queue.length === 0 ? 'sent' : 'queued';
  }

  /** Drops what waits and refuses further frames: the client is being let go. */
  discard(): void {
    this.overflowed = true;
    this.queue?.clear();
  }

  /** Moves waiting frames to the socket while it has room; runs after every completed write. */
  pump(): void {
    const queue = this.queue;
    if (!queue) return;
    while (queue.length > 0 && this.sink.bufferedAmount < this.limits.highWaterBytes) {
      this.write(queue.shift() as OutgoingFrame<M>);
    }
  }

  private write(frame: OutgoingFrame<M>): void {
    this.stats.framesSent += 1;
    // Text frames from a shared Buffer: ws frames it without copying the payload.
    this.sink.send(frame.data, { binary: false }, (this.afterWrite ??= this.written.bind(this)));
  }

  private written(error?: Error): void {
    if (!error) this.pump();
  }
}
