import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { SimulationService } from '../simulation/simulation.service';

/** Applies SIM_FAULTS to HTTP answers: a 5xx instead, a slow answer, or a garbled body. */
@Injectable()
export class FaultMiddleware implements NestMiddleware {
  constructor(private readonly sim: SimulationService) {}

  use(_request: Request, response: Response, next: NextFunction): void {
    const faults = this.sim.faults;
    switch (faults.http()) {
      case 'error': {
        response.status(faults.errorStatus()).type('application/json').send('{"error":"upstream fault"}');
        return;
      }
      case 'slow': {
        setTimeout(next, faults.slowMs());
        return;
      }
      case 'malformed': {
        const send = response.send.bind(response);
        response.send = (body?: unknown) => send(typeof body === 'string' ? faults.corrupt(body) : body);
        next();
        return;
      }
      default:
        next();
    }
  }
}
