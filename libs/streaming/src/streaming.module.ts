import { Module, type OnModuleInit, Optional } from '@nestjs/common';
import { Metrics } from '@app/observability';
import { StreamServer } from './stream-server';

/** One StreamServer per application, shared by all of its stream endpoints. */
@Module({ providers: [StreamServer], exports: [StreamServer] })
export class StreamingModule implements OnModuleInit {
  constructor(
    private readonly server: StreamServer,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  onModuleInit(): void {
    const metrics = this.metrics;
    if (!metrics) return;
    const per = (pick: (entry: ReturnType<StreamServer['report']>[number]) => number) => () =>
      this.server.report().map((entry) => ({ labels: { endpoint: entry.path }, value: pick(entry) }));
    const labels = ['endpoint'];
    metrics.observe(
      'ws_connections_open',
      'Open WebSocket connections',
      per((e) => e.open),
      labels,
    );
    metrics.observe(
      'ws_held_bytes',
      'Bytes held for clients that read slower than frames arrive (unsent plus queued)',
      per((e) => e.heldBytes),
      labels,
    );
    metrics.observe(
      'ws_subscriptions',
      'Subscriptions held by open WebSocket connections',
      per((e) => e.subscriptions),
      labels,
    );
    metrics.observeCounter(
      'ws_frames_sent_total',
      'Frames written to WebSocket clients',
      per((e) => e.stats.framesSent),
      labels,
    );
    metrics.observeCounter(
      'ws_frames_conflated_total',
      'Frames merged into a waiting frame of a slow client',
      per((e) => e.stats.framesConflated),
      labels,
    );
    metrics.observeCounter(
      'ws_closed_slow_total',
      'Clients closed with 1013 because their outgoing buffer stayed full',
      per((e) => e.stats.closedSlow),
      labels,
    );
  }
}
