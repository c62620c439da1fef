import type { Page } from './fixtures-types';

/**
 * Every item of a paginated list, page by page: the offset grows by the
 * page's `limit` until `has_more` is false (fixtures-live, section 4).
 */
export async function* paginate<T>(
  fetchPage: (offset: number, limit: number) => Promise<Page<T>>,
  pageSize = 200,
): AsyncGenerator<T, void, undefined> {
  let offset = 0;
  for (;;) {
    const page = await fetchPage(offset, pageSize);
    yield* page.items;
    if (!page.has_more || page.count === 0) return;
    offset += page.limit;
  }
}

/** Collects an async iterable into an array. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
