import { HeartbeatSchedule, heartbeatParameter } from './heartbeat-schedule';
import type { OutgoingFrame } from './outgoing-queue';
import type { StreamConnection } from './stream-connection';

/** The part of a connection the schedule uses: it sends and it closes. */
class FakeConnection {
  readonly received: OutgoingFrame<unknown>[] = [];
  private readonly closeListeners: ((connection: StreamConnection<unknown, unknown>) => void)[] = [];

  send(frame: OutgoingFrame<unknown>): boolean {
    this.received.push(frame);
    return true;
  }

  onClose(listener: (connection: StreamConnection<unknown, unknown>) => void): void {
    this.closeListeners.push(listener);
  }

  close(): void {
    for (const listener of this.closeListeners) listener(this.asConnection);
  }

  get asConnection(): StreamConnection<unknown, unknown> {
    return this as unknown as StreamConnection<unknown, unknown>;
  }
}

describe('heartbeatParameter', () => {
  it('reads an integer period from 500 to 60000 ms, and nothing when absent', () => {
    expect(heartbeatParameter('/v1/stream?key=k')).toBeUndefined();
    expect(heartbeatParameter('/v1/stream?heartbeat_ms=500')).toBe(500);
    expect(heartbeatParameter('/v1/stream?key=k&heartbeat_ms=60000')).toBe(60_000);
  });

  it.each(['499', '60001', '1.5', '-1000', 'abc', '', '1e3', '0x1f4', '1000000000000'])(
    'refuses heartbeat_ms=%s',
    (value) => expect(heartbeatParameter(`/v1/stream?heartbeat_ms=${value}`)).toBeNull(),
  );

  it('refuses the parameter given twice', () => {
    expect(heartbeatParameter('/v1/stream?heartbeat_ms=1000&heartbeat_ms=2000')).toBeNull();
  });
});

describe('HeartbeatSchedule', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('beats each client at its own period, building one frame per period for all its clients', () => {
    let built = 0;
    const schedule = new HeartbeatSchedule(() => ({ data: Buffer.from(String(++built)) }));
    const [a, b, c] = [new FakeConnection(), new FakeConnection(), new FakeConnection()];
    schedule.add(a.asConnection, 500);
    schedule.add(b.asConnection, 500);
    schedule.add(c.asConnection, 2_000);
    jest.advanceTimersByTime(2_000);
    expect(a.received).toHaveLength(4);
    expect(c.received).toHaveLength(1);
    expect(a.received.map((frame) => frame.data)).toEqual(b.received.map((frame) => frame.data));
    expect(a.received[0]).toBe(b.received[0]);
    expect(built).toBe(5);
  });

  it('stops beating a closed client, and stops a period nobody uses any more', () => {
    const schedule = new HeartbeatSchedule(() => ({ data: Buffer.from('beat') }));
    const [a, b] = [new FakeConnection(), new FakeConnection()];
    schedule.add(a.asConnection, 1_000);
    schedule.add(b.asConnection, 3_000);
    jest.advanceTimersByTime(1_000);
    a.close();
    jest.advanceTimersByTime(3_000);
    expect(a.received).toHaveLength(1);
    expect(b.received).toHaveLength(1);
    expect(schedule.periods).toEqual([3_000]);
    schedule.stop();
    expect(schedule.periods).toEqual([]);
  });
});
