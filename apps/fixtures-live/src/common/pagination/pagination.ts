export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 200;

export interface PageRequest {
  readonly limit: number;
  readonly offset: number;
}

/** The public pagination envelope. */
export interface PageEnvelope<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
  count: number;
  page: number;
  total_pages: number;
  has_more: boolean;
}

/**
 * Page size and offset with defaults applied and the limit clamped to the
 * maximum. The REST layer rejects a limit below 1 or a negative offset before
 * this; anything that still gets here is brought into range rather than trusted.
 */
export function resolvePage(query: { limit?: number; offset?: number }): PageRequest {
  const limit = wholeNumber(query.limit) ?? DEFAULT_PAGE_LIMIT;
  const offset = wholeNumber(query.offset) ?? 0;
  return { limit: Math.min(Math.max(limit, 1), MAX_PAGE_LIMIT), offset: Math.max(offset, 0) };
}

/** Wraps one page of `items` (out of `total` matching records) in the envelope. */
export function pageEnvelope<T>(items: T[], total: number, limit: number, offset: number): PageEnvelope<T> {
  const count = items.length;
  const size = Math.max(limit, 1);
  return {
    items,
    total,
    limit,
    offset,
    count,
    page: Math.floor(offset / size) + 1,
    total_pages: Math.ceil(total / size),
    has_more: offset + count < total,
  };
}

function wholeNumber(value: number | undefined): number | undefined {
  return value === undefined || !Number.isFinite(value) ? undefined : Math.trunc(value);
}
