import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Request, Response } from 'express';
import type { SimEnv } from '../config/sim.env';
import { sendError, sendJson } from '../common/respond';
import { SimulationService } from '../simulation/simulation.service';

/**
 * The sportsbook, under /book so it shares the port with the live-score
 * provider (readers use BOOK_UPSTREAM_URL=http://host:4000/book).
 */
@Controller('book')
export class SportsbookController {
  private readonly coldMs: number;

  constructor(
    private readonly sim: SimulationService,
    config: ConfigService<SimEnv, true>,
  ) {
    this.coldMs = config.get('SIM_BOOK_COLD_MS', { infer: true });
  }

  @Get('sports')
  sports(@Req() request: Request, @Res() response: Response): void {
    sendJson(request, response, JSON.stringify(this.sim.simulation.book.sportList()));
  }

  /** While the book is cold the label tables are missing: 503 for soccer, an empty list for the rest. */
  @Get('sports/:sport/periods')
  periods(@Param('sport') sport: string, @Req() request: Request, @Res() response: Response): void {
    const id = Number(sport);
    const periods = this.sim.simulation.book.periods(id);
    if (!periods) return sendError(response, 404, `unknown sport ${sport}`);
    if (this.sim.now() - this.sim.startedAt < this.coldMs) {
      if (id === 29) return sendError(response, 503, 'book is warming up');
      return sendJson(request, response, '[]');
    }
    sendJson(request, response, JSON.stringify(periods));
  }

  @Get('sports/:sport/leagues')
  leagues(@Param('sport') sport: string, @Req() request: Request, @Res() response: Response): void {
    const leagues = this.sim.simulation.book.leagues(Number(sport));
    if (!leagues) return sendError(response, 404, `unknown sport ${sport}`);
    sendJson(request, response, JSON.stringify(leagues));
  }

  @Get('sports/:sport/matchups')
  matchups(@Param('sport') sport: string, @Req() request: Request, @Res() response: Response): void {
    const body = this.sim.simulation.book.matchups(Number(sport));
    if (!body) return sendError(response, 404, `unknown sport ${sport}`);
    sendJson(request, response, body.json, `"mu-${sport}-${body.version}"`);
  }

  @Get('sports/:sport/markets')
  markets(
    @Param('sport') sport: string,
    @Query('since') since: string | undefined,
    @Req() request: Request,
    @Res() response: Response,
  ): void {
    const book = this.sim.simulation.book;
    const id = Number(sport);
    if (!book.has(id)) return sendError(response, 404, `unknown sport ${sport}`);
    if (since === undefined) {
      const body = book.markets(id);
      if (body) sendJson(request, response, body.json, `"mk-${sport}-${body.last}"`);
      return;
    }
    const cursor = /^\d+$/.test(since) ? Number(since) : NaN;
    const answer = book.marketsSince(id, cursor);
    if (!answer || answer.status === 410 || answer.json === undefined) {
      return sendError(response, 410, `cursor ${since} is no longer known; load the full list`);
    }
    sendJson(request, response, answer.json, `"mk-${sport}-${since}-${answer.last}"`);
  }
}
