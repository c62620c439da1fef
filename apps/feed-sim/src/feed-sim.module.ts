import { Controller, Get, Module } from '@nestjs/common';

@Controller()
class SimHealthController {
  @Get('healthz')
  healthz(): string {
    return 'ok';
  }
}

/** The upstream simulator; its two upstream APIs arrive with their own issue. */
@Module({ controllers: [SimHealthController] })
export class FeedSimModule {}
