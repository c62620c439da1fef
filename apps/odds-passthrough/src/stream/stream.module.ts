import { type DynamicModule, Module } from '@nestjs/common';
import { StreamingModule } from '@app/streaming';
import type { BookConfig } from '../book/book-read-port';
import { createBookGateway } from './book-stream.gateway';
import { BookStreamService } from './book-stream.service';

/** The price stream of every configured book (api replicas); needs the app's global BookModule. */
@Module({})
export class StreamModule {
  static forBooks(books: readonly BookConfig[]): DynamicModule {
    return {
      module: StreamModule,
      imports: [StreamingModule],
      providers: [BookStreamService, ...books.map(createBookGateway)],
    };
  }
}
