import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

/**
 * Serves the OpenAPI description generated from the controllers at
 * `{basePath}/docs` (interactive) and `{basePath}/docs-json` (the document).
 */
export function setupOpenApi(app: INestApplication, basePath: string): void {
  const config = new DocumentBuilder()
    .setTitle('Fixtures and live scores')
    .setDescription(
      [
        'Catalog (sports, leagues, matches, teams), live snapshots and frozen results, limited to the sports',
        "enabled for the caller's account: anything outside that allowlist behaves as if it did not exist",
        '(empty list or 404, never 403).',
        '',
        'Send the key in the `X-API-Key` header (or the `key` query parameter; the header wins). Scopes:',
        '`fixtures` for the catalog (except /sports, which any valid key may read), `live_scores` or',
        '`live_scores_statistics` for /matches/{match_id}/live, `final_scores` for /matches/{match_id}/result.',
        '',
        'Errors are JSON `{"detail": "..."}`: 401 missing or inactive key, 403 missing scope, 404 not found or',
        'no data yet, 422 a missing or unparsable parameter (the detail names it).',
        '',
        'Each key has a request rate shared by every replica. Every answer to a valid key carries',
        '`RateLimit-Limit` (the burst), `RateLimit-Remaining` and `RateLimit-Reset` (whole seconds until one more',
        'request is allowed, 0 while one is); past the limit the answer is 429 `{"detail": "rate limit exceeded"}`',
        'with `Retry-After` (whole seconds, at least 1). Health and documentation routes are never limited.',
        '',
        'Lists are paged with `limit` (default 100, at most 200; larger values are clamped) and `offset`',
        '(default 0); keep adding `limit` to `offset` while `has_more` is true. Orders are stable: leagues by',
        'id, matches by start time then id, teams by name then id. Timestamps are UTC, `YYYY-MM-DDTHH:MM:SSZ`.',
        '',
        'Soccer snapshots may carry optional extras, omitted when unknown: `xg` ({home, away} expected goals),',
        '`pressure` (per-minute momentum in [-1, 1], positive for home) and `form` ({home, away} recent results).',
        '',
        'Conditional requests: every 200 JSON answer carries a strong `ETag` (a hash of its bytes, equal on every',
        'replica) and `Cache-Control: private, no-cache`. Send it back in `If-None-Match` (a list, weak forms and',
        '`*` accepted) and an unchanged answer is a 304 with no body. A live snapshot whose clock runs changes',
        'with the projected clock, so its tag changes every second.',
        '',
        'Live updates are pushed on the WebSocket stream at `/v1/stream` (see its own description).',
      ].join('\n'),
    )
    .setVersion('1')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, 'api-key')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup(`${basePath}/docs`, app, document, { jsonDocumentUrl: `${basePath}/docs-json` });
}
