import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '@app/clock';
import type { SimEnv } from '../config/sim.env';
import { FaultPlan } from '../faults/fault-plan';
import type { LiveMessage } from '../model/live-feed';
import { Random } from '../model/random';
import { Simulation } from '../model/simulation';

type Listener = (messages: readonly LiveMessage[]) => void;

/** Runs the simulation on a wall-clock timer and hands each tick's live envelopes to the stream. */
@Injectable()
export class SimulationService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SimulationService.name);
  readonly simulation: Simulation;
  readonly faults: FaultPlan;
  readonly tickMs: number;
  readonly startedAt: number;
  private readonly listeners = new Set<Listener>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    config: ConfigService<SimEnv, true>,
    private readonly clock: Clock,
  ) {
    const seed = config.get('SIM_SEED', { infer: true });
    this.startedAt = clock.now();
    this.tickMs = config.get('SIM_TICK_MS', { infer: true });
    this.simulation = new Simulation({
      seed,
      scale: config.get('SIM_SCALE', { infer: true }),
      speed: config.get('SIM_SPEED', { infer: true }),
      wallStart: this.startedAt,
      deltaRetentionMs: config.get('SIM_DELTA_RETENTION_MS', { infer: true }),
      kitDelayMs: config.get('SIM_KIT_DELAY_MS', { infer: true }),
    });
    this.faults = new FaultPlan(config.get('SIM_FAULTS', { infer: true }), Random.of(seed, 'faults'));
  }

  onModuleInit(): void {
    const began = Date.now();
    this.tick();
    const size = this.simulation.book.size();
    this.logger.log(
      `simulation ready in ${Date.now() - began} ms: ${this.simulation.live.current().length} live states, ` +
        `${size.matchups} matchups, ${size.markets} markets`,
    );
    this.timer = setInterval(() => this.tick(), this.tickMs);
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  now(): number {
    return this.clock.now();
  }

  onMessages(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private tick(): void {
    const messages = this.simulation.tick(this.clock.now());
    if (messages.length === 0) return;
    for (const listener of this.listeners) listener(messages);
  }
}
