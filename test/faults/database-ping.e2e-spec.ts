import { DataSource } from 'typeorm';
import { pingDatabase } from '../../libs/health/src/database-ping';
import { PrivatePostgres } from '../support/private-postgres';

/**
 * The ingest lease's PostgreSQL probe against a server of the test's own: it answers while the
 * server runs, says no at once when the server is stopped, says yes again once it is back (the
 * pool reconnects by itself), gives up after its timeout when no answer can come in time, and
 * says no for a data source that has been destroyed.
 */
describe('pingDatabase', () => {
  const pg = new PrivatePostgres();
  let dataSource: DataSource;

  beforeAll(async () => {
    await pg.start();
    dataSource = new DataSource({ type: 'postgres', url: await pg.createDatabase('ping'), poolSize: 2 });
    await dataSource.initialize();
  }, 60_000);

  afterAll(async () => {
    await dataSource.destroy();
    await pg.dispose();
  });

  it('follows the server through a stop and a start', async () => {
    expect(await pingDatabase(dataSource, 1000)).toBe(true);
    await pg.stop();
    expect(await pingDatabase(dataSource, 1000)).toBe(false);
    await pg.start();
    expect(await pingDatabase(dataSource, 1000)).toBe(true);
  }, 60_000);

  it('answers false once its timeout has passed when the query cannot run in time', async () => {
    // The pool's two connections busy for two seconds: the ping waits for one and is too late.
    const busy = Promise.all([1, 2].map(() => dataSource.query('SELECT pg_sleep(2)')));
    const started = performance.now();
    expect(await pingDatabase(dataSource, 300)).toBe(false);
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(1500);
    await busy;
  }, 30_000);

  it('answers false for a data source that has been destroyed', async () => {
    const closed = new DataSource({
      type: 'postgres',
      url: await pg.createDatabase('ping_closed'),
      poolSize: 1,
    });
    await closed.initialize();
    expect(await pingDatabase(closed, 1000)).toBe(true);
    await closed.destroy();
    expect(await pingDatabase(closed, 1000)).toBe(false);
  }, 30_000);
});
