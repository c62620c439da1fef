import { type DynamicModule, Module } from '@nestjs/common';
import type { BookConfig } from '../book/book-read-port';
import { createBookController } from './book-controller.factory';

/** The REST routes of every configured book (not registered in ROLE=ingest). */
@Module({})
export class CatalogModule {
  static forBooks(books: readonly BookConfig[]): DynamicModule {
    return { module: CatalogModule, controllers: books.map(createBookController) };
  }
}
