/**
 * Simulated time: milliseconds since the simulator started, running
 * `speed` times faster than the wall clock. Every timestamp the simulator
 * emits is wall time, so a match scheduled at sim time t shows the wall
 * time at which the simulation will reach t.
 */
export class SimTime {
  constructor(
    readonly wallStart: number,
    readonly speed: number,
  ) {}

  simAt(wallMs: number): number {
    return (wallMs - this.wallStart) * this.speed;
  }

  wallAt(simMs: number): number {
    return this.wallStart + simMs / this.speed;
  }

  /** RFC 3339 UTC, whole seconds. */
  iso(simMs: number): string {
    return isoSeconds(this.wallAt(simMs));
  }
}

export function isoSeconds(wallMs: number): string {
  return new Date(Math.floor(wallMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
