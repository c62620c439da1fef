import SwaggerParser from '@apidevtools/swagger-parser';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { bootFixtures, bootOdds, http } from '../support/apps';

/** The OpenAPI documents are generated from the code; they must be valid and cover every public route. */
describe.each([
  [
    'fixtures-live',
    bootFixtures,
    '/v1/docs-json',
    ['/v1/health', '/v1/sports', '/v1/matches/{match_id}/live', '/v1/teams'],
  ],
  [
    'odds-passthrough',
    bootOdds,
    '/v1/book/docs-json',
    ['/v1/book/sports', '/v1/book/matches', '/v1/book/odds'],
  ],
] as const)('%s OpenAPI', (_name, boot, path, routes) => {
  let app: INestApplication;

  beforeAll(async () => {
    ({ app } = await boot({ env: { ROLE: 'api' } }));
  });

  afterAll(() => app?.close());

  it('is served without a key and validates', async () => {
    const response = await request(http(app)).get(path).expect(200);
    const document = response.body as { paths: Record<string, unknown> };
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
    for (const route of routes) expect(Object.keys(document.paths)).toContain(route);
  });
});
