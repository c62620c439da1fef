import {
  CliError,
  parseExpiry,
  parseGrants,
  parseKeysCommand,
  parseRate,
  parseScopes,
  parseSports,
} from './cli-args';

function cliError(run: () => unknown): CliError {
  try {
    run();
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  throw new Error('expected a CliError, but nothing was thrown');
}

const parse = (line: string) => parseKeysCommand(line.split(' ').filter((part) => part.length > 0));

describe('parseKeysCommand', () => {
  describe('commands', () => {
    it('parses account:create', () => {
      expect(parse('account:create --name Acme --sports 1,Soccer')).toEqual({
        name: 'account:create',
        accountName: 'Acme',
        sports: [{ id: 1 }, { providerKey: 'soccer' }],
      });
    });

    it('trims the account name and refuses a blank one', () => {
      expect(parseKeysCommand(['account:create', '--name', '  Acme Ltd ', '--sports', '1'])).toMatchObject({
        accountName: 'Acme Ltd',
      });
      expect(
        cliError(() => parseKeysCommand(['account:create', '--name', '   ', '--sports', '1'])).message,
      ).toBe('--name must not be empty');
    });

    it('parses account:sports', () => {
      expect(parse('account:sports --account acc-1 --sports 2,basketball,3')).toEqual({
        name: 'account:sports',
        account: 'acc-1',
        sports: [{ id: 2 }, { providerKey: 'basketball' }, { id: 3 }],
      });
    });

    it('parses key:issue with repeated --grant', () => {
      expect(
        parse(
          'key:issue --account acc-1 --scopes fixtures,odds --expires-at 2027-01-31T00:00:00Z --grant pinnacle=29,33 --grant bet365=1',
        ),
      ).toEqual({
        name: 'key:issue',
        account: 'acc-1',
        scopes: ['fixtures', 'odds'],
        expiresAt: new Date('2027-01-31T00:00:00Z'),
        grants: { pinnacle: [29, 33], bet365: [1] },
        rate: null,
      });
    });

    it('parses --rate on key:issue and key:update, and default to clear it', () => {
      expect(parse('key:issue --account acc-1 --scopes odds --rate 20/40')).toMatchObject({
        rate: { rps: 20, burst: 40 },
      });
      expect(parse('key:update --id key-1 --rate 5')).toEqual({
        name: 'key:update',
        id: 'key-1',
        rate: { rps: 5, burst: 10 },
      });
      expect(parse('key:update --id key-1 --rate default')).toEqual({
        name: 'key:update',
        id: 'key-1',
        rate: null,
      });
    });

    it('parses key:issue with defaults: no expiry and no grants', () => {
      expect(parse('key:issue --account acc-1 --scopes fixtures')).toEqual({
        name: 'key:issue',
        account: 'acc-1',
        scopes: ['fixtures'],
        expiresAt: null,
        grants: {},
        rate: null,
      });
    });

    it('parses a partial key:update, leaving out what was not given', () => {
      const scopesOnly = parse('key:update --id key-1 --scopes odds');
      expect(scopesOnly).toEqual({ name: 'key:update', id: 'key-1', scopes: ['odds'] });
      expect(scopesOnly).not.toHaveProperty('expiresAt');
      expect(scopesOnly).not.toHaveProperty('grants');

      expect(parse('key:update --id key-1')).toEqual({ name: 'key:update', id: 'key-1' });
      expect(parse('key:update --id key-1 --grant pinnacle=29')).toEqual({
        name: 'key:update',
        id: 'key-1',
        grants: { pinnacle: [29] },
      });
      expect(parse('key:update --id key-1 --expires-at 2027-01-31T00:00:00+02:00')).toEqual({
        name: 'key:update',
        id: 'key-1',
        expiresAt: new Date('2027-01-30T22:00:00Z'),
      });
    });

    it('parses key:disable and key:enable', () => {
      expect(parse('key:disable --id key-1')).toEqual({ name: 'key:disable', id: 'key-1' });
      expect(parse('key:enable --id key-1')).toEqual({ name: 'key:enable', id: 'key-1' });
    });

    it('parses key:list with and without --account', () => {
      expect(parse('key:list')).toEqual({ name: 'key:list' });
      expect(parse('key:list')).not.toHaveProperty('account');
      expect(parse('key:list --account acc-1')).toEqual({ name: 'key:list', account: 'acc-1' });
    });
  });

  describe('--option=value form', () => {
    it('reads the value after the first =', () => {
      expect(
        parseKeysCommand([
          'key:issue',
          '--account=acc-1',
          '--scopes=odds',
          '--grant=pinnacle=29,33',
          '--rate=3/6',
        ]),
      ).toEqual({
        name: 'key:issue',
        account: 'acc-1',
        scopes: ['odds'],
        expiresAt: null,
        grants: { pinnacle: [29, 33] },
        rate: { rps: 3, burst: 6 },
      });
    });

    it('mixes with the spaced form', () => {
      expect(parseKeysCommand(['key:update', '--id=key-1', '--scopes', 'fixtures'])).toEqual({
        name: 'key:update',
        id: 'key-1',
        scopes: ['fixtures'],
      });
    });
  });

  describe('errors', () => {
    it('refuses an unknown command', () => {
      const error = cliError(() => parse('key:destroy --id key-1'));
      expect(error.message).toMatch(/^unknown command: key:destroy/);
    });

    it('refuses a missing command', () => {
      expect(cliError(() => parseKeysCommand([])).message).toMatch(/^missing command/);
    });

    it('refuses an unknown option, including one of another command', () => {
      expect(cliError(() => parse('key:list --acount acc-1')).message).toBe('unknown option: --acount');
      expect(cliError(() => parse('key:disable --id key-1 --scopes odds')).message).toBe(
        'unknown option: --scopes',
      );
    });

    it('refuses an option without a value', () => {
      expect(cliError(() => parse('key:disable --id')).message).toBe('missing value for --id');
      expect(cliError(() => parse('key:issue --account --scopes odds')).message).toBe(
        'missing value for --account',
      );
    });

    it('refuses a missing required option', () => {
      expect(cliError(() => parse('key:issue --account acc-1')).message).toBe('missing option --scopes');
      expect(cliError(() => parse('key:disable')).message).toBe('missing option --id');
    });

    it('refuses a stray positional argument', () => {
      expect(cliError(() => parse('key:disable key-1')).message).toBe('unexpected argument: key-1');
      expect(cliError(() => parse('key:disable --')).message).toBe('unexpected argument: --');
    });

    it('refuses a non-repeatable option given twice', () => {
      expect(cliError(() => parse('key:disable --id a --id b')).message).toBe('--id given twice');
      expect(
        cliError(() => parseKeysCommand(['key:update', '--id=a', '--scopes=odds', '--scopes', 'fixtures']))
          .message,
      ).toBe('--scopes given twice');
    });

    it('refuses an unknown scope', () => {
      const error = cliError(() => parse('key:issue --account acc-1 --scopes fixtures,admin'));
      expect(error.message.startsWith('unknown scope: ')).toBe(true);
      expect(error.message).toContain('admin');
    });

    it.each(['2026-13-01', '2026-13-01T00:00:00Z', 'tomorrow', '2026-01-01', '2026-01-01T00:00:00', ''])(
      'refuses the malformed --expires-at %j',
      (value) => {
        const error = cliError(() =>
          parseKeysCommand(['key:issue', '--account=a', '--scopes=odds', `--expires-at=${value}`]),
        );
        expect(error.message).toMatch(/^malformed --expires-at/);
      },
    );

    it('refuses a grant without =', () => {
      expect(cliError(() => parse('key:issue --account a --scopes odds --grant pinnacle')).message).toMatch(
        /^malformed --grant pinnacle/,
      );
    });

    it.each(['pinnacle=abc', 'pinnacle=1.5', 'pinnacle=29,x', 'pinnacle=0', 'pinnacle=-3'])(
      'refuses the grant %j with a sport that is not a positive integer',
      (grant) => {
        const error = cliError(() =>
          parseKeysCommand(['key:issue', '--account=a', '--scopes=odds', `--grant=${grant}`]),
        );
        expect(error.message).toMatch(/^malformed sportsbook sport in --grant pinnacle/);
      },
    );

    it('refuses the same book twice', () => {
      expect(
        cliError(() => parse('key:issue --account a --scopes odds --grant pinnacle=1 --grant pinnacle=2'))
          .message,
      ).toBe('--grant pinnacle given twice');
    });
  });

  describe('expiry', () => {
    it('clears the expiry on key:update with never', () => {
      expect(parse('key:update --id key-1 --expires-at never')).toEqual({
        name: 'key:update',
        id: 'key-1',
        expiresAt: null,
      });
      expect(parse('key:update --id key-1 --expires-at NEVER')).toMatchObject({ expiresAt: null });
    });

    it('refuses never on key:issue', () => {
      expect(cliError(() => parse('key:issue --account a --scopes odds --expires-at never')).message).toMatch(
        /^malformed --expires-at/,
      );
    });
  });
});

describe('parseExpiry', () => {
  it('accepts ISO date-times with a zone', () => {
    expect(parseExpiry('2027-01-31T00:00:00Z', false)).toEqual(new Date(Date.UTC(2027, 0, 31)));
    expect(parseExpiry('2027-01-31T00:00Z', false)).toEqual(new Date(Date.UTC(2027, 0, 31)));
    expect(parseExpiry('2027-01-31T01:00:00.500+01:00', false)).toEqual(
      new Date(Date.UTC(2027, 0, 31, 0, 0, 0, 500)),
    );
  });

  it('clears on blank or never only when allowed', () => {
    expect(parseExpiry(' ', true)).toBeNull();
    expect(parseExpiry('never', true)).toBeNull();
    expect(() => parseExpiry('never', false)).toThrow(CliError);
    expect(() => parseExpiry('', false)).toThrow(CliError);
  });

  it('refuses calendar dates that do not exist instead of rolling them over', () => {
    expect(() => parseExpiry('2026-02-30T00:00:00Z', false)).toThrow(CliError);
    expect(() => parseExpiry('2026-04-31T00:00:00Z', false)).toThrow(CliError);
  });
});

describe('parseRate', () => {
  it('reads RPS/BURST, RPS alone with twice the rate as burst, and default', () => {
    expect(parseRate('20/20')).toEqual({ rps: 20, burst: 20 });
    expect(parseRate(' 50 ')).toEqual({ rps: 50, burst: 100 });
    expect(parseRate('1000000')).toEqual({ rps: 1_000_000, burst: 1_000_000 });
    expect(parseRate('DEFAULT')).toBeNull();
  });

  it.each(['', '0', '0/5', '5/0', '1.5', '-3', '5/', '/5', '5/5/5', 'fast', '1000001', '5/1000001'])(
    'refuses %p',
    (value) => {
      expect(cliError(() => parseRate(value)).message).toMatch(/^malformed --rate/);
    },
  );
});

describe('parseGrants', () => {
  it('gives an empty sport list for book=', () => {
    expect(parseGrants(['pinnacle='])).toEqual({ pinnacle: [] });
    expect(parse('key:issue --account a --scopes odds --grant pinnacle=')).toMatchObject({
      grants: { pinnacle: [] },
    });
  });

  it('sorts and de-duplicates the sports of a grant', () => {
    expect(parseGrants(['pinnacle=33, 29,33'])).toEqual({ pinnacle: [29, 33] });
  });

  it('refuses a bad sportsbook name', () => {
    expect(() => parseGrants(['=29'])).toThrow(/bad sportsbook name/);
    expect(() => parseGrants(['pin nacle=29'])).toThrow(/bad sportsbook name/);
  });
});

describe('parseSports', () => {
  it('reads ids and provider keys, lower-casing the keys', () => {
    expect(parseSports('1, Soccer ,ICE-hockey,42')).toEqual([
      { id: 1 },
      { providerKey: 'soccer' },
      { providerKey: 'ice-hockey' },
      { id: 42 },
    ]);
  });

  it('skips empty items', () => {
    expect(parseSports('1,,2,')).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it.each(['0', '-1', '1.5', '99999999999'])('refuses the id %j that is not a positive integer', (item) => {
    expect(() => parseSports(item)).toThrow(CliError);
  });

  it('refuses sport names with odd characters', () => {
    expect(cliError(() => parseSports('soccer!')).message).toBe('unknown sport: soccer!');
  });
});

describe('parseScopes', () => {
  it('reads and de-duplicates scopes', () => {
    expect(parseScopes('fixtures, odds,fixtures')).toEqual(['fixtures', 'odds']);
  });

  it('is case-sensitive', () => {
    expect(cliError(() => parseScopes('Odds')).message).toMatch(/^unknown scope: Odds/);
  });
});
