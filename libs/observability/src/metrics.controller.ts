import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Metrics } from './metrics';
import { OperationsEndpoint } from './operations-endpoint';

/** Prometheus scrape endpoint at `/metrics`: outside any API prefix and without a key, where scrapers expect it. */
@ApiExcludeController()
@OperationsEndpoint()
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
