import { issueTestKey } from '../support/keys-cli';
import { startService } from '../support/service-process';
import { fuzzService } from './support/fuzz-suite';

/** Seeded fuzzing of fixtures-live's HTTP edge and stream (FUZZ_SEED replays a run). */
describe('fixtures-live under generated requests and frames', () => {
  fuzzService(async () => {
    const { key } = await issueTestKey({
      scopes: 'fixtures,live_scores,live_scores_statistics,final_scores',
    });
    const service = await startService('fixtures-live', '/v1/health/ready', { ROLE: 'api' });
    return {
      service,
      target: {
        name: 'fixtures-live',
        field: 'detail',
        healthPath: '/v1/health',
        surface: {
          key,
          streamPath: '/v1/stream',
          routes: [
            '/v1/sports',
            '/v1/leagues?sport=1',
            '/v1/leagues/active',
            '/v1/matches?sport=1&limit=5',
            '/v1/matches?status=live&from=2020-01-01T00:00:00Z',
            '/v1/matches/active',
            '/v1/matches/live',
            '/v1/matches/1',
            '/v1/matches/abc',
            '/v1/matches/1/live',
            '/v1/matches/1/result',
            '/v1/teams?sport=1',
            '/v1/health',
            '/v1/health/ready',
            '/metrics',
            '/v1/docs',
          ],
        },
        probe: {
          message: JSON.stringify({ action: 'subscribe', match_id: 424242 }),
          answers: (frame) => frame.op === 'error' && String(frame.error).includes('424242'),
        },
      },
    };
  });
});
