import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { BookConfig } from '../book/book-read-port';
import { API_KEY_SECURITY } from '../catalog/book-controller.factory';

/**
 * One OpenAPI description per book, generated from the controllers and served
 * at `<prefix>/docs` (JSON at `<prefix>/docs-json`), without a key.
 */
export function setUpBookDocs(app: INestApplication, books: readonly BookConfig[]): void {
  const whole = SwaggerModule.createDocument(app, describeApi());
  for (const book of books) {
    const base = book.prefix.slice(1);
    SwaggerModule.setup(`${base}/docs`, app, forBook(whole, book), {
      jsonDocumentUrl: `${base}/docs-json`,
      yamlDocumentUrl: `${base}/docs-yaml`,
    });
  }
}

function describeApi(): Omit<OpenAPIObject, 'paths'> {
  return new DocumentBuilder()
    .setTitle('Odds passthrough')
    .setDescription(
      [
        "Prices of a sportsbook, flattened into selections: one per outcome, with the book's names resolved and",
        'the lock state worked out here, so `status` can be trusted as served.',
        '',
        'Send the key in the `X-API-Key` header or the `key` query parameter (the header wins). A key needs the',
        "`odds` scope, this book's grant and a grant for each sport it reads; lists leave out sports that are not",
        'granted, while a request that names one (by `sport` or through a match) is refused with 403.',
        '',
        'Every error is JSON `{"error": "..."}`: 400 `invalid parameter: <name>` for a missing or malformed',
        'parameter (ids are non-negative integers; unknown parameters are ignored, a repeated one counts by its',
        'first value), 404 `match not found: <id>`, and the authentication errors listed per route.',
        '',
        'Each key has a request rate shared by every replica. Every answer to a valid key carries',
        '`RateLimit-Limit` (the burst), `RateLimit-Remaining` and `RateLimit-Reset` (whole seconds until one more',
        'request is allowed, 0 while one is); past the limit the answer is 429 `{"error": "rate limit exceeded"}`',
        'with `Retry-After` (whole seconds, at least 1). Health, documentation and the route list are never limited.',
        '',
        'Versions: every change a client can see in a market comes with a greater `version` for its `market_key`,',
        'also across restarts. Keep the greatest version per market_key and ignore anything not greater. A line',
        'move is a new market_key; the old one is withdrawn. `ts` is the epoch milliseconds of the last change',
        'applied to the match.',
        '',
        'Conditional requests: every 200 JSON answer carries a strong `ETag` (a hash of its bytes, equal on every',
        'replica) and `Cache-Control: private, no-cache`. Send it back in `If-None-Match` (a list, weak forms and',
        '`*` accepted) and an unchanged answer is a 304 with no body. Statuses are evaluated at each answer, so',
        'a cutoff passing changes the tag.',
        '',
        'The live stream is a WebSocket at `<prefix>/data` on the same host.',
      ].join('\n'),
    )
    .setVersion('1')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, API_KEY_SECURITY)
    .build();
}

function forBook(whole: OpenAPIObject, book: BookConfig): OpenAPIObject {
  const paths = Object.fromEntries(
    Object.entries(whole.paths).filter(
      ([path]) => path === book.prefix || path.startsWith(`${book.prefix}/`),
    ),
  );
  return { ...whole, info: { ...whole.info, title: `Odds passthrough: ${book.prefix}` }, paths };
}
