import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type RateUsedEvent, Subjects } from '@app/messaging';
import { RateLimits } from './rate-limits';

/** Other replicas' REST use of each key, so the limit holds across replicas. */
@Controller()
export class RateUsedController {
  constructor(private readonly limits: RateLimits) {}

  @EventPattern(Subjects.authRateUsed)
  onRateUsed(@Payload() event: RateUsedEvent | undefined): void {
    this.limits.applyReport(event);
  }
}
