import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';

/** OpenAPI description of `limit` and `offset`, shared by every paginated route. */
export const PAGE_QUERY_DOCS = applyDecorators(
  ApiQuery({
    name: 'limit',
    type: Number,
    required: false,
    description: 'Page size, at least 1; default 100; values above 200 are clamped to 200.',
  }),
  ApiQuery({
    name: 'offset',
    type: Number,
    required: false,
    description: 'Records to skip, at least 0; default 0.',
  }),
);
