import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { fraction } from '../model/catalog';
import { sendError, sendJson } from '../common/respond';
import { SimulationService } from '../simulation/simulation.service';

/** The live-score provider's catalog, its latest-state lookup and its (slow) kits, at the root. */
@Controller()
export class LivescoresController {
  constructor(private readonly sim: SimulationService) {}

  @Get('sports')
  sports(@Req() request: Request, @Res() response: Response): void {
    sendJson(request, response, JSON.stringify(this.sim.simulation.sports()));
  }

  @Get('sports/:id/leagues')
  leagues(@Param('id') id: string, @Req() request: Request, @Res() response: Response): void {
    const leagues = this.sim.simulation.leaguesOf(id);
    if (!leagues) return sendError(response, 404, `unknown sport ${id}`);
    sendJson(request, response, JSON.stringify(leagues));
  }

  @Get('leagues/:id/teams')
  teams(@Param('id') id: string, @Req() request: Request, @Res() response: Response): void {
    const teams = this.sim.simulation.teamsOf(id);
    if (!teams) return sendError(response, 404, `unknown league ${id}`);
    sendJson(request, response, JSON.stringify(teams));
  }

  @Get('leagues/:id/matches')
  matches(@Param('id') id: string, @Req() request: Request, @Res() response: Response): void {
    const matches = this.sim.simulation.matchesOf(id);
    if (!matches) return sendError(response, 404, `unknown league ${id}`);
    sendJson(request, response, JSON.stringify(matches));
  }

  /** Slow on purpose (a few hundred ms), and 404 until the kit is known. */
  @Get('teams/:id/kit')
  async kit(@Param('id') id: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    const delay = 200 + Math.floor(fraction(this.sim.simulation.options.seed, `kit-delay:${id}`) * 400);
    await new Promise((resolve) => setTimeout(resolve, delay));
    const url = this.sim.simulation.kitOf(id, this.sim.now());
    if (url === undefined) return sendError(response, 404, `unknown team ${id}`);
    if (url === null) return sendError(response, 404, `no kit for ${id} yet`);
    sendJson(request, response, JSON.stringify({ url }));
  }

  @Get('live/:statId')
  live(@Param('statId') statId: string, @Req() request: Request, @Res() response: Response): void {
    const message = this.sim.simulation.live.latestOf(statId);
    if (!message) return sendError(response, 404, `no live state for ${statId}`);
    sendJson(request, response, message.json);
  }
}
