import type { OutgoingFrame } from './outgoing-queue';
import type { StreamConnection } from './stream-connection';

/** The periods a client may ask for with `heartbeat_ms` on the stream URL. */
export const HEARTBEAT_MS = { min: 500, max: 60_000 } as const;

/**
 * The `heartbeat_ms` query parameter of a handshake URL: absent (undefined),
 * a period within `HEARTBEAT_MS`, or null when it is anything else (the
 * handshake is then refused with 400).
 */
export function heartbeatParameter(url: string | undefined): number | undefined | null {
  const values = new URL(url ?? '/', 'http://stream').searchParams.getAll('heartbeat_ms');
  if (values.length === 0) return undefined;
  if (values.length > 1 || !/^[0-9]{1,6}$/.test(values[0])) return null;
  const period = Number(values[0]);
  return period >= HEARTBEAT_MS.min && period <= HEARTBEAT_MS.max ? period : null;
}

interface Group<M> {
  readonly timer: NodeJS.Timeout;
  readonly members: Set<StreamConnection<unknown, M>>;
  /** The close listener of every member: one function per group, not a closure per client. */
  readonly leave: (connection: StreamConnection<unknown, M>) => void;
}

/**
 * Heartbeats of one endpoint: clients that chose the same period share one
 * timer, and each beat is built and encoded once for all of them. A client
 * leaves its group when its socket closes; an empty group stops its timer.
 */
export class HeartbeatSchedule<M> {
  private readonly groups = new Map<number, Group<M>>();

  /** `frame` builds the beat of the moment; the app reads its own clock. */
  constructor(private readonly frame: () => OutgoingFrame<M>) {}

  add(connection: StreamConnection<unknown, M>, periodMs: number): void {
    let group = this.groups.get(periodMs);
    if (!group) {
      const members = new Set<StreamConnection<unknown, M>>();
      const timer = setInterval(() => this.beat(members), periodMs);
      timer.unref();
      group = { timer, members, leave: (member) => this.remove(member, periodMs) };
      this.groups.set(periodMs, group);
    }
    group.members.add(connection);
    connection.onClose(group.leave);
  }

  /** Periods with at least one client, for tests and metrics. */
  get periods(): number[] {
    return [...this.groups.keys()];
  }

  stop(): void {
    for (const group of this.groups.values()) clearInterval(group.timer);
    this.groups.clear();
  }

  private beat(members: Set<StreamConnection<unknown, M>>): void {
    const frame = this.frame();
    for (const connection of members) connection.send(frame);
  }

  private remove(connection: StreamConnection<unknown, M>, periodMs: number): void {
    const group = this.groups.get(periodMs);
    if (!group) return;
    group.members.delete(connection);
    if (group.members.size > 0) return;
    clearInterval(group.timer);
    this.groups.delete(periodMs);
  }
}
