import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '@app/clock';
import { NatsEventClient, Subjects } from '@app/messaging';

/** Changes within this window go out as one notice. */
const COALESCE_MS = 100;

/** Tells every api replica that catalog rows changed, at most one notice per short window. */
@Injectable()
export class CatalogChangeNotifier implements OnApplicationShutdown {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly events: NatsEventClient,
    private readonly clock: Clock,
  ) {}

  changed(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.events.emitEvent(Subjects.fixturesCatalogChanged, { at: this.clock.date().toISOString() });
    }, COALESCE_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearTimeout(this.timer);
  }
}
