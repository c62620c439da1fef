import { Injectable, type OnApplicationBootstrap, type BeforeApplicationShutdown } from '@nestjs/common';

/**
 * Whether this process should receive traffic: false until the application
 * has bootstrapped (migrations applied, modules initialised) and again from
 * the moment shutdown begins.
 */
@Injectable()
export class Readiness implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private ready = false;

  get isReady(): boolean {
    return this.ready;
  }

  onApplicationBootstrap(): void {
    this.ready = true;
  }

  beforeApplicationShutdown(): void {
    this.ready = false;
  }
}
