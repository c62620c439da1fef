import { type CanActivate, type ExecutionContext, Injectable, NotFoundException } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import { isPublicRoute } from '@app/auth';
import type { FixturesEnv } from '../../config/fixtures.env';

export const INGEST_ONLY_DETAIL = 'not served here: this process only ingests (ROLE=ingest)';

/**
 * An ingest process (ROLE=ingest) reads the provider, stores and publishes;
 * it answers its public routes (health) and nothing else, so a misrouted
 * client learns where it went instead of being served by the writer.
 */
@Injectable()
export class ServingRoleGuard implements CanActivate {
  private readonly ingestOnly: boolean;

  constructor(
    private readonly reflector: Reflector,
    config: ConfigService<FixturesEnv, true>,
  ) {
    this.ingestOnly = config.get('ROLE', { infer: true }) === 'ingest';
  }

  canActivate(context: ExecutionContext): boolean {
    if (!this.ingestOnly) return true;
    if (isPublicRoute(this.reflector, [context.getHandler(), context.getClass()])) return true;
    throw new NotFoundException(INGEST_ONLY_DETAIL);
  }
}
