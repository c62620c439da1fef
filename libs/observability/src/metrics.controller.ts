import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '@app/auth';
import { Metrics } from './metrics';

/** Prometheus scrape endpoint; outside any API prefix and without a key, per the runtime contract. */
@ApiExcludeController()
@Public()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  async scrape(@Res() res: Response): Promise<void> {
    const body = await this.metrics.render();
    res.type(this.metrics.contentType).send(body);
  }
}
