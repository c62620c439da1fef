import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { runKeys } from '../support/keys-cli';
import { runDatabaseUrl } from '../support/test-env';

describe('npm run keys (against the real PostgreSQL)', () => {
  let db: Client;

  beforeAll(async () => {
    db = new Client({ connectionString: runDatabaseUrl() });
    await db.connect();
  });

  afterAll(async () => {
    await db.end();
  });

  it('creates an account and issues an sk_ key whose plain text is stored nowhere', async () => {
    const account = await runKeys(['account:create', '--name', 'acme', '--sports', '1']);
    expect(account.code).toBe(0);
    expect(String(account.json.account)).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(account.json)).toEqual(['account']);

    const issued = await runKeys([
      'key:issue',
      '--account',
      String(account.json.account),
      '--scopes',
      'fixtures,odds',
      '--grant',
      'book=29',
    ]);
    expect(issued.code).toBe(0);
    expect(Object.keys(issued.json).sort()).toEqual(['id', 'key']);
    const key = String(issued.json.key);
    expect(key).toMatch(/^sk_[A-Za-z0-9_-]{32,}$/);

    const rows = await db.query<Record<string, unknown>>(
      `SELECT k.*, g.book, g.sports FROM auth.api_keys k JOIN auth.api_key_grants g ON g.key_id = k.id WHERE k.id = $1`,
      [issued.json.id],
    );
    expect(rows.rows).toHaveLength(1);
    const row = rows.rows[0];
    expect(row.key_hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(row).toMatchObject({ scopes: ['fixtures', 'odds'], active: true, book: 'book', sports: [29] });
    const everything = await db.query<{ dump: string }>(
      `SELECT concat_ws('|', (SELECT string_agg(t::text, '|') FROM auth.api_keys t),
                             (SELECT string_agg(a::text, '|') FROM auth.accounts a),
                             (SELECT string_agg(g::text, '|') FROM auth.api_key_grants g)) AS dump`,
    );
    expect(everything.rows[0].dump).not.toContain(key);
    expect(issued.stderr).not.toContain(key);
  });

  it('updates, disables, enables and lists keys without ever showing the key', async () => {
    const account = await runKeys(['account:create', '--name', 'beta', '--sports', '']);
    const accountId = String(account.json.account);
    const issued = await runKeys(['key:issue', '--account', accountId, '--scopes', 'fixtures']);
    const id = String(issued.json.id);

    const updated = await runKeys([
      'key:update',
      '--id',
      id,
      '--scopes',
      'odds',
      '--grant',
      'book=33,29',
      '--grant',
      'other=',
      '--expires-at',
      '2030-01-01T00:00:00Z',
    ]);
    expect(updated.code).toBe(0);
    expect(updated.json).toMatchObject({
      id,
      account: accountId,
      scopes: ['odds'],
      active: true,
      expires_at: '2030-01-01T00:00:00.000Z',
      grants: { book: [29, 33], other: [] },
    });

    const replaced = await runKeys(['key:update', '--id', id, '--grant', 'book=1']);
    expect(replaced.json).toMatchObject({ scopes: ['odds'], grants: { book: [1] } });

    expect((await runKeys(['key:disable', '--id', id])).json).toMatchObject({ id, active: false });
    expect((await runKeys(['key:enable', '--id', id])).json).toMatchObject({ id, active: true });

    const listed = await runKeys(['key:list', '--account', accountId]);
    expect(listed.json).toEqual({ keys: [expect.objectContaining({ id, account: accountId })] });
    expect(listed.stdout).not.toContain(String(issued.json.key));
    expect(Object.keys((listed.json.keys as object[])[0]).sort()).toEqual([
      'account',
      'active',
      'created_at',
      'expires_at',
      'grants',
      'id',
      'rate',
      'scopes',
      'updated_at',
    ]);
  });

  it('resolves sports by provider key once the catalog knows them', async () => {
    const sport = await db.query<{ id: number }>(
      `INSERT INTO fixtures.sports (provider_key, name) VALUES ('soccer', 'Soccer')
       ON CONFLICT (provider_key) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
    );
    const soccer = sport.rows[0].id;
    const account = await runKeys(['account:create', '--name', 'gamma', '--sports', `soccer,${soccer},7`]);
    expect(account.code).toBe(0);
    const changed = await runKeys([
      'account:sports',
      '--account',
      String(account.json.account),
      '--sports',
      'soccer',
    ]);
    expect(changed.json).toEqual({ account: account.json.account, sports: [soccer] });
  });

  it.each([
    [
      ['key:issue', '--account', '00000000-0000-0000-0000-000000000000', '--scopes', 'odds'],
      /^unknown account: /,
    ],
    [['key:issue', '--account', 'not-an-id', '--scopes', 'odds'], /^unknown account: not-an-id$/],
    [['account:create', '--name', 'x', '--sports', 'curling'], /^unknown sport: curling$/],
    [['account:create', '--name', 'x'], /^missing option --sports$/],
    [['key:disable', '--id', '00000000-0000-0000-0000-000000000000'], /^unknown key: /],
    [['key:rotate', '--id', 'x'], /^unknown command: key:rotate/],
    [['key:update', '--id', 'x', '--rate', '0/5'], /^malformed --rate 0\/5/],
  ])('refuses %j with a JSON error and a non-zero exit', async (args, message) => {
    const result = await runKeys(args);
    expect(result.code).not.toBe(0);
    expect(Object.keys(result.json)).toEqual(['error']);
    expect(String(result.json.error)).toMatch(message);
  });

  it('stores a key rate given with --rate and shows it in key:list', async () => {
    const account = await runKeys(['account:create', '--name', 'rated', '--sports', '1']);
    const accountId = String(account.json.account);
    const issued = await runKeys([
      'key:issue',
      '--account',
      accountId,
      '--scopes',
      'odds',
      '--rate',
      '20/40',
    ]);
    expect(issued.code).toBe(0);
    const halved = await runKeys(['key:update', '--id', String(issued.json.id), '--rate', '10']);
    expect(halved.json).toMatchObject({ rate: { rps: 10, burst: 20 } });
    const listed = await runKeys(['key:list', '--account', accountId]);
    expect(listed.json).toEqual({ keys: [expect.objectContaining({ rate: { rps: 10, burst: 20 } })] });
  });

  it('refuses an unknown scope and a malformed date before touching anything', async () => {
    const account = await runKeys(['account:create', '--name', 'delta', '--sports', '1']);
    const accountId = String(account.json.account);
    const scope = await runKeys(['key:issue', '--account', accountId, '--scopes', 'fixtures,admin']);
    expect(scope.code).not.toBe(0);
    expect(String(scope.json.error)).toMatch(/^unknown scope: admin/);
    const date = await runKeys([
      'key:issue',
      '--account',
      accountId,
      '--scopes',
      'odds',
      '--expires-at',
      '31/12/2030',
    ]);
    expect(date.code).not.toBe(0);
    expect(String(date.json.error)).toMatch(/^malformed --expires-at/);
    const keys = await runKeys(['key:list', '--account', accountId]);
    expect(keys.json).toEqual({ keys: [] });
  });
});
