import { Module } from '@nestjs/common';
import { StreamingModule } from '@app/streaming';
import { LiveModule } from '../live/live.module';
import { LiveChangesController } from './live-changes.controller';
import { LiveStreamGateway } from './live-stream.gateway';
import { LiveStreamService } from './live-stream.service';

@Module({
  imports: [StreamingModule, LiveModule],
  controllers: [LiveChangesController],
  providers: [LiveStreamService, LiveStreamGateway],
})
export class StreamModule {}
