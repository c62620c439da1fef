import type { BookConfig, BookReadPort } from '../book/book-read-port';
import { BookCatalog } from './book-catalog';
import type { OddsAnswerFreshness } from './odds-answer-freshness';

/**
 * The one `BookCatalog` of each configured book, shared by the book's
 * controller and the front door's first answers, so both hand out the same
 * answers (one serialisation per state of a match).
 */
export class BookCatalogs {
  private readonly byName: ReadonlyMap<string, BookCatalog>;

  constructor(books: readonly BookConfig[], replica: BookReadPort, freshness: OddsAnswerFreshness) {
    this.byName = new Map(books.map((book) => [book.name, new BookCatalog(replica, book, freshness)]));
  }

  of(book: BookConfig): BookCatalog {
    const catalog = this.byName.get(book.name);
    if (!catalog) throw new Error(`BookCatalogs: no book named ${book.name}`);
    return catalog;
  }
}
