import { type FeedHealth, isFeedHealthy } from './feed-health';

const NOW = Date.parse('2026-11-21T12:00:00Z');

function health(overrides: Partial<FeedHealth> = {}): FeedHealth {
  return { last_success_at: NOW - 1000, full_loaded: true, poll_ms: 1000, ...overrides };
}

describe('isFeedHealthy', () => {
  it('is unhealthy before the ingest has reported anything', () => {
    expect(isFeedHealthy(undefined, NOW)).toBe(false);
  });

  it('is unhealthy until the book has been loaded in full once', () => {
    expect(isFeedHealthy(health({ full_loaded: false }), NOW)).toBe(false);
  });

  it('is unhealthy before the first successful poll', () => {
    expect(isFeedHealthy(health({ last_success_at: null }), NOW)).toBe(false);
  });

  it('is healthy while the last success is under three poll intervals old', () => {
    expect(isFeedHealthy(health({ last_success_at: NOW }), NOW)).toBe(true);
    expect(isFeedHealthy(health({ last_success_at: NOW - 2999 }), NOW)).toBe(true);
  });

  it('turns unhealthy at three poll intervals, with no message needed', () => {
    expect(isFeedHealthy(health({ last_success_at: NOW - 3000 }), NOW)).toBe(false);
    expect(isFeedHealthy(health({ last_success_at: NOW - 3000, poll_ms: 2000 }), NOW)).toBe(true);
  });
});
