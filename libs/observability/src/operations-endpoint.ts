import { SetMetadata } from '@nestjs/common';

export const OPERATIONS_ENDPOINT = 'observability:operations-endpoint';

/**
 * Marks a controller or route that operators' tooling calls without a key
 * (`/metrics`). Authentication lives in a library above this one; its guard
 * reads this mark, so observability needs to know nothing of keys.
 */
export const OperationsEndpoint = (): MethodDecorator & ClassDecorator =>
  SetMetadata(OPERATIONS_ENDPOINT, true);
