import { Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DependencyHealth } from './dependency-health';
import { Readiness } from './readiness';

@Global()
@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  providers: [DependencyHealth, Readiness],
  exports: [DependencyHealth, Readiness],
})
export class DependencyHealthModule {}
