import { NotFoundException } from '@nestjs/common';
import type { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { Public } from '@app/auth';
import type { FixturesEnv } from '../../config/fixtures.env';
import { ServingRoleGuard } from './serving-role.guard';

class Routes {
  @Public()
  health(): void {}

  matches(): void {}
}

function contextFor(handler: keyof Routes): ExecutionContextHost {
  const context = new ExecutionContextHost([{}, {}, () => undefined]);
  context.setType('http');
  jest
    .spyOn(context, 'getHandler')
    .mockReturnValue(Object.getOwnPropertyDescriptor(Routes.prototype, handler)?.value as () => void);
  jest.spyOn(context, 'getClass').mockReturnValue(Routes);
  return context;
}

function guardFor(role: string): ServingRoleGuard {
  const config = { get: () => role } as unknown as ConfigService<FixturesEnv, true>;
  return new ServingRoleGuard(new Reflector(), config);
}

describe('ServingRoleGuard', () => {
  it('lets every route through in ROLE all and api', () => {
    for (const role of ['all', 'api']) {
      expect(guardFor(role).canActivate(contextFor('matches'))).toBe(true);
      expect(guardFor(role).canActivate(contextFor('health'))).toBe(true);
    }
  });

  it('serves only public routes in ROLE ingest, as a 404 elsewhere', () => {
    const guard = guardFor('ingest');
    expect(guard.canActivate(contextFor('health'))).toBe(true);
    expect(() => guard.canActivate(contextFor('matches'))).toThrow(NotFoundException);
  });
});
