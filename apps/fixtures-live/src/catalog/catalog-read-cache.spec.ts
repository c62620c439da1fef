import { ManualClock } from '@app/clock';
import type { NatsLink } from '@app/messaging';
import { CatalogReadCache } from './catalog-read-cache';

describe('CatalogReadCache', () => {
  it('loads again after a change notice, even while the load before it is still under way', async () => {
    // The notice is not listened to here; the link is only needed by onModuleInit.
    const cache = new CatalogReadCache(new ManualClock(), {} as NatsLink);
    let release: (value: string) => void = () => undefined;
    const before = cache.get('page', () => new Promise<string>((resolve) => (release = resolve)));
    cache.clear();
    let loads = 0;
    const after = cache.get('page', () => {
      loads += 1;
      return Promise.resolve('changed');
    });
    release('unchanged');
    expect(await before).toBe('unchanged');
    expect(await after).toBe('changed');
    expect(loads).toBe(1);
  });
});
