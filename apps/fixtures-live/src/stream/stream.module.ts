import { Module } from '@nestjs/common';
import { StreamingModule } from '@app/streaming';
import { LiveModule } from '../live/live.module';
import { LiveStreamService } from './live-stream.service';

@Module({
  imports: [StreamingModule, LiveModule],
  providers: [LiveStreamService],
})
export class StreamModule {}
