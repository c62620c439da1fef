import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Subjects } from '@app/messaging';
import { IngestService } from './ingest.service';

/** Kit requests from api replicas; only an ingest acts on them. */
@Controller()
export class KitRequestsController {
  constructor(private readonly ingest: IngestService) {}

  @EventPattern(Subjects.fixturesKitsWanted)
  onKitsWanted(@Payload() event: unknown): void {
    this.ingest.onKitsWanted(event);
  }
}
