import { randomBytes } from 'node:crypto';
import type { MsgHdrs } from 'nats';
import {
  ChangeLog,
  type ChangePosition,
  type ChainOutcome,
  type LogAppend,
  type LoggedTip,
  NatsLink,
  type NatsEventClient,
  positionOf,
} from '@app/messaging';
import { readBatch } from '../../apps/odds-passthrough/src/book/match-change-batch';
import { NATS_URL, runSubjectPrefix } from './test-env';

/**
 * A real change log whose next append can be held back while something else
 * happens (a process frozen between its lease check and its append), or whose
 * next answer is lost on the way back (the log took the change, the appender
 * hears a timeout).
 */
export class PausableChangeLog extends ChangeLog {
  private pause?: () => Promise<void>;
  private loseAnswer = false;

  /** The next append goes out once `meanwhile` has run. */
  pauseNextAppend(meanwhile: () => Promise<void>): void {
    this.pause = meanwhile;
  }

  /** The next append is taken by the log, but its appender is told it timed out. */
  loseNextAnswer(): void {
    this.loseAnswer = true;
  }

  /** Every append goes through here or `appendChain`, one at a time (`append`) or a round of them. */
  override appendAll(appends: readonly LogAppend[]): Promise<number>[] {
    return this.held(appends, () => super.appendAll(appends));
  }

  override async appendChain(
    appends: readonly (LogAppend & { readonly id: string })[],
    after: LoggedTip,
  ): Promise<ChainOutcome> {
    const pause = this.pause;
    const loseAnswer = this.loseAnswer;
    this.pause = undefined;
    this.loseAnswer = false;
    await pause?.();
    const outcome = await super.appendChain(appends, after);
    if (!loseAnswer) return outcome;
    const seqs = 'seqs' in outcome ? outcome.seqs.map((seq) => Promise.resolve(seq)) : outcome.oneByOne;
    return {
      oneByOne: seqs.map((seq, index) =>
        index === 0 ? seq.then(() => Promise.reject(new Error('TIMEOUT'))) : seq,
      ),
    };
  }

  private held(appends: readonly LogAppend[], send: () => Promise<number>[]): Promise<number>[] {
    const pause = this.pause;
    const loseAnswer = this.loseAnswer;
    this.pause = undefined;
    this.loseAnswer = false;
    if (!pause && !loseAnswer) return send();
    const sent = (async () => {
      await pause?.();
      return send();
    })();
    return appends.map(async (_, index) => {
      const seq = await (await sent)[index];
      if (loseAnswer && index === 0) throw new Error('TIMEOUT');
      return seq;
    });
  }
}

/** A NATS connection under a prefix of its own inside the run's, so its streams are one suite's and teardown drops them. */
export async function connectUnderOwnPrefix(name: string): Promise<NatsLink> {
  const link = new NatsLink({
    servers: [NATS_URL],
    name,
    subjectPrefix: `${runSubjectPrefix()}_${name}${randomBytes(3).toString('hex')}`,
  });
  if (!(await link.waitUntilConnected(5000))) throw new Error('NATS did not answer');
  return link;
}

/** Removes a suite's log and closes its connection. */
export async function dropLog(link: NatsLink, log: ChangeLog): Promise<void> {
  await (await link.jetStreamManager()).streams.delete(log.streamName).catch(() => undefined);
  await link.onApplicationShutdown();
}

/**
 * A frame an ingest's publisher sent on NATS, with its position: from the
 * headers (fixtures-live), or from its line in a batch of match changes (odds).
 */
export interface EmittedFrame {
  readonly frame: string;
  readonly position: ChangePosition | null;
}

/** A stand-in for the event client that records what a publisher emits, frame by frame, in order. */
export function recordingEvents(): { readonly events: NatsEventClient; readonly emitted: EmittedFrame[] } {
  const emitted: EmittedFrame[] = [];
  const events = {
    emitFrame: (subject: string, data: Uint8Array, meta?: MsgHdrs) => {
      const text = Buffer.from(data).toString();
      const batch = subject.endsWith('.changes') ? readBatch(text) : undefined;
      if (batch) emitted.push(...batch.map((change) => ({ frame: change.text, position: change.position })));
      else emitted.push({ frame: text, position: positionOf(meta) });
    },
  } as unknown as NatsEventClient;
  return { events, emitted };
}
