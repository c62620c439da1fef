import { Module } from '@nestjs/common';
import { StreamingModule } from '@app/streaming';
import { BookStreamService } from './book-stream.service';

/** Needs the global BookModule of the app for the book view. */
@Module({
  imports: [StreamingModule],
  providers: [BookStreamService],
})
export class StreamModule {}
