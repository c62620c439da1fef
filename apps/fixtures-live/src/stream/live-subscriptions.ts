import type { Principal } from '@app/auth';
import type { LiveMatchDirectory } from '../live/live-match-directory';
import { errorFrameText, type LiveFrame, liveFrame } from './live-frames';
import { parseStreamRequest } from './stream-message';

/** A connected client as the subscriptions see it (a StreamConnection in production). */
export interface LiveSubscriber {
  readonly principal: Principal;
  readonly isOpen: boolean;
  send(frame: LiveFrame): boolean;
  sendText(text: string): boolean;
}

interface Channel {
  readonly matchId: number;
  /** The latest snapshot JSON; null until the match has gone live. */
  latest: string | null;
  /** Per subscriber: whether its first (snapshot) frame for this match went out. */
  readonly subscribers: Map<LiveSubscriber, { snapshotSent: boolean }>;
}

/**
 * Who follows which match on this replica, and the fan-out of each change.
 * Only matches with subscribers are held in memory; the rest is read from the
 * directory when someone subscribes. Each change becomes one Buffer shared by
 * every subscriber of the match.
 */
export class LiveSubscriptions {
  private readonly channels = new Map<number, Channel>();
  private readonly bySubscriber = new Map<LiveSubscriber, Set<number>>();
  private readonly inFlight = new Map<LiveSubscriber, Promise<void>>();

  constructor(private readonly directory: LiveMatchDirectory) {}

  /** Matches with at least one subscriber on this replica. */
  get matchCount(): number {
    return this.channels.size;
  }

  /** Subscriptions held on this replica, one per client and match. */
  get subscriptionCount(): number {
    let count = 0;
    for (const matches of this.bySubscriber.values()) count += matches.size;
    return count;
  }

  /**
   * Handles a client's frames one after another: a subscribe waits for the
   * database, and an unsubscribe sent right after it must not overtake it.
   */
  receive(subscriber: LiveSubscriber, text: string): Promise<void> {
    const previous = this.inFlight.get(subscriber) ?? Promise.resolve();
    const next = previous.then(() => this.handleFrame(subscriber, text));
    this.inFlight.set(subscriber, next);
    return next;
  }

  async handleFrame(subscriber: LiveSubscriber, text: string): Promise<void> {
    const request = parseStreamRequest(text);
    if (!request.ok) {
      subscriber.sendText(errorFrameText(request.error));
      return;
    }
    const { action, matchId } = request.value;
    if (action === 'unsubscribe') {
      this.unsubscribe(subscriber, matchId);
      return;
    }
    try {
      await this.subscribe(subscriber, matchId);
    } catch {
      this.unsubscribe(subscriber, matchId);
      subscriber.sendText(errorFrameText(`temporarily unable to subscribe to match ${matchId}; try again`));
    }
  }

  /** A new state of a match, as published by the ingest (the exact snapshot JSON). */
  publish(matchId: number, payload: string): void {
    const channel = this.channels.get(matchId);
    if (!channel || channel.latest === payload) return;
    channel.latest = payload;
    let update: LiveFrame | undefined;
    let snapshot: LiveFrame | undefined;
    for (const [subscriber, state] of channel.subscribers) {
      if (state.snapshotSent) {
        subscriber.send((update ??= liveFrame('update', matchId, payload)));
      } else {
        state.snapshotSent = true;
        subscriber.send((snapshot ??= liveFrame('snapshot', matchId, payload)));
      }
    }
  }

  disconnect(subscriber: LiveSubscriber): void {
    for (const matchId of this.bySubscriber.get(subscriber) ?? []) this.leave(subscriber, matchId);
    this.bySubscriber.delete(subscriber);
    this.inFlight.delete(subscriber);
  }

  /**
   * Re-reads the stored state of every followed match and sends what differs,
   * for changes published while this replica could not hear them.
   */
  async resync(): Promise<void> {
    for (const channel of [...this.channels.values()]) {
      const stored = await this.directory.latestFrameData(channel.matchId);
      if (stored !== null) this.publish(channel.matchId, stored);
    }
  }

  private async subscribe(subscriber: LiveSubscriber, matchId: number): Promise<void> {
    const match = await this.directory.findVisibleMatch(matchId);
    if (!subscriber.isOpen) return;
    if (!match || !subscriber.principal.canSeeFixturesSport(match.sportId)) {
      subscriber.sendText(errorFrameText(`match not found: ${matchId}`));
      return;
    }
    const channel = this.join(subscriber, matchId);
    if (channel.latest === null) {
      const stored = await this.directory.latestFrameData(matchId);
      // A change heard while reading is newer than the stored state.
      if (stored !== null && channel.latest === null) channel.latest = stored;
    }
    // A Test at stumps sends nothing until play resumes; the resumed state is then this client's snapshot.
    if (match.closeOfPlay) return;
    const state = channel.subscribers.get(subscriber);
    if (!state || state.snapshotSent || channel.latest === null || !subscriber.isOpen) return;
    state.snapshotSent = true;
    subscriber.send(liveFrame('snapshot', matchId, channel.latest));
  }

  private join(subscriber: LiveSubscriber, matchId: number): Channel {
    let channel = this.channels.get(matchId);
    if (!channel) {
      channel = { matchId, latest: null, subscribers: new Map() };
      this.channels.set(matchId, channel);
    }
    // Subscribing again asks for a fresh snapshot.
    channel.subscribers.set(subscriber, { snapshotSent: false });
    let matches = this.bySubscriber.get(subscriber);
    if (!matches) {
      matches = new Set();
      this.bySubscriber.set(subscriber, matches);
    }
    matches.add(matchId);
    return channel;
  }

  private unsubscribe(subscriber: LiveSubscriber, matchId: number): void {
    this.leave(subscriber, matchId);
    this.bySubscriber.get(subscriber)?.delete(matchId);
  }

  private leave(subscriber: LiveSubscriber, matchId: number): void {
    const channel = this.channels.get(matchId);
    if (!channel) return;
    channel.subscribers.delete(subscriber);
    if (channel.subscribers.size === 0) this.channels.delete(matchId);
  }
}

/** The payload of a NATS message as text, decoded once per message per replica. */
export function payloadText(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8');
}
