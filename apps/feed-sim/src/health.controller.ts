import { Controller, Get } from '@nestjs/common';

/** Liveness of the simulator itself; never subject to injected faults. */
@Controller()
export class HealthController {
  @Get('healthz')
  healthz(): { status: string } {
    return { status: 'ok' };
  }
}
