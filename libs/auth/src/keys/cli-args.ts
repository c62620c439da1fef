import type { RateLimit } from '../rate-limit/token-bucket';
import { ALL_SCOPES, isScope, type Scope } from '../scopes';

export class CliError extends Error {}

/** A sport as typed by the operator: a fixtures sport id, or a provider key to resolve. */
export type SportRef = { readonly id: number } | { readonly providerKey: string };

export type ExpiryChange = Date | null;

/** A key's own rate, or null: back to the service defaults. */
export type RateChange = RateLimit | null;

export type KeysCommand =
  | { readonly name: 'account:create'; readonly accountName: string; readonly sports: readonly SportRef[] }
  | { readonly name: 'account:sports'; readonly account: string; readonly sports: readonly SportRef[] }
  | {
      readonly name: 'key:issue';
      readonly account: string;
      readonly scopes: readonly Scope[];
      readonly expiresAt: Date | null;
      readonly grants: Readonly<Record<string, readonly number[]>>;
      readonly rate: RateChange;
    }
  | {
      readonly name: 'key:update';
      readonly id: string;
      readonly scopes?: readonly Scope[];
      readonly expiresAt?: ExpiryChange;
      readonly grants?: Readonly<Record<string, readonly number[]>>;
      readonly rate?: RateChange;
    }
  | { readonly name: 'key:disable' | 'key:enable'; readonly id: string }
  | { readonly name: 'key:list'; readonly account?: string };

export const COMMANDS = [
  'account:create',
  'account:sports',
  'key:issue',
  'key:update',
  'key:disable',
  'key:enable',
  'key:list',
] as const;

const ALLOWED_OPTIONS: Record<(typeof COMMANDS)[number], readonly string[]> = {
  'account:create': ['name', 'sports'],
  'account:sports': ['account', 'sports'],
  'key:issue': ['account', 'scopes', 'expires-at', 'grant', 'rate'],
  'key:update': ['id', 'scopes', 'expires-at', 'grant', 'rate'],
  'key:disable': ['id'],
  'key:enable': ['id'],
  'key:list': ['account'],
};

const REPEATABLE = new Set(['grant']);
const BOOK_NAME = /^[a-z0-9][a-z0-9_-]*$/i;
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
const INTEGER = /^\d+$/;

type Options = Map<string, string[]>;

/** Parses `<command> [--option value | --option=value]...` strictly: typos are errors. */
export function parseKeysCommand(argv: readonly string[]): KeysCommand {
  const [name, ...rest] = argv;
  if (!name) throw new CliError(`missing command; one of ${COMMANDS.join(', ')}`);
  if (!isCommand(name)) throw new CliError(`unknown command: ${name}; one of ${COMMANDS.join(', ')}`);
  const options = readOptions(rest, ALLOWED_OPTIONS[name]);

  switch (name) {
    case 'account:create':
      return {
        name,
        accountName: nonEmpty(required(options, 'name'), 'name'),
        sports: parseSports(required(options, 'sports')),
      };
    case 'account:sports':
      return {
        name,
        account: required(options, 'account'),
        sports: parseSports(required(options, 'sports')),
      };
    case 'key:issue': {
      const expiresAt = optional(options, 'expires-at');
      const rate = optional(options, 'rate');
      return {
        name,
        account: required(options, 'account'),
        scopes: parseScopes(required(options, 'scopes')),
        expiresAt: expiresAt === undefined ? null : parseExpiry(expiresAt, false),
        grants: parseGrants(options.get('grant') ?? []),
        rate: rate === undefined ? null : parseRate(rate),
      };
    }
    case 'key:update': {
      const scopes = optional(options, 'scopes');
      const expiresAt = optional(options, 'expires-at');
      const grants = options.get('grant');
      const rate = optional(options, 'rate');
      return {
        name,
        id: required(options, 'id'),
        ...(scopes !== undefined && { scopes: parseScopes(scopes) }),
        ...(expiresAt !== undefined && { expiresAt: parseExpiry(expiresAt, true) }),
        ...(grants !== undefined && { grants: parseGrants(grants) }),
        ...(rate !== undefined && { rate: parseRate(rate) }),
      };
    }
    case 'key:disable':
    case 'key:enable':
      return { name, id: required(options, 'id') };
    case 'key:list': {
      const account = optional(options, 'account');
      return account === undefined ? { name } : { name, account };
    }
  }
}

function isCommand(value: string): value is (typeof COMMANDS)[number] {
  return (COMMANDS as readonly string[]).includes(value);
}

function readOptions(args: readonly string[], allowed: readonly string[]): Options {
  const options: Options = new Map();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--') || arg.length === 2) throw new CliError(`unexpected argument: ${arg}`);
    const equals = arg.indexOf('=');
    const option = equals >= 0 ? arg.slice(2, equals) : arg.slice(2);
    if (!allowed.includes(option)) throw new CliError(`unknown option: --${option}`);
    let value: string;
    if (equals >= 0) {
      value = arg.slice(equals + 1);
    } else {
      const next = args[i + 1];
      if (next === undefined || next.startsWith('--')) throw new CliError(`missing value for --${option}`);
      value = next;
      i += 1;
    }
    const values = options.get(option) ?? [];
    if (values.length > 0 && !REPEATABLE.has(option)) throw new CliError(`--${option} given twice`);
    options.set(option, [...values, value]);
  }
  return options;
}

function required(options: Options, option: string): string {
  const value = optional(options, option);
  if (value === undefined) throw new CliError(`missing option --${option}`);
  return value;
}

function optional(options: Options, option: string): string | undefined {
  return options.get(option)?.[0];
}

function nonEmpty(value: string, option: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw new CliError(`--${option} must not be empty`);
  return trimmed;
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

export function parseSports(value: string): SportRef[] {
  return splitList(value).map((item) => {
    if (INTEGER.test(item)) return { id: toSportId(item, 'sport') };
    if (!/^[a-z0-9][a-z0-9_-]*$/i.test(item)) throw new CliError(`unknown sport: ${item}`);
    return { providerKey: item.toLowerCase() };
  });
}

export function parseScopes(value: string): Scope[] {
  const scopes = splitList(value);
  for (const scope of scopes) {
    if (!isScope(scope)) throw new CliError(`unknown scope: ${scope}; one of ${ALL_SCOPES.join(', ')}`);
  }
  return [...new Set(scopes as Scope[])];
}

/** `never` (or an empty value) clears the expiry, which only an update may do. */
export function parseExpiry(value: string, allowClear: boolean): ExpiryChange {
  const trimmed = value.trim();
  if (allowClear && (trimmed === '' || trimmed.toLowerCase() === 'never')) return null;
  const match = ISO_DATE_TIME.exec(trimmed);
  const at = match ? new Date(trimmed) : new Date(Number.NaN);
  // Date rolls impossible days over (February 30th becomes March 2nd); an operator's typo must not.
  if (!match || Number.isNaN(at.getTime()) || !isCalendarDate(match)) {
    throw new CliError(
      `malformed --expires-at: expected an ISO 8601 date-time with a zone, such as 2027-01-31T00:00:00Z`,
    );
  }
  return at;
}

function isCalendarDate(match: RegExpExecArray): boolean {
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0));
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return (
    month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour < 24 && minute < 60 && second < 60
  );
}

/** Highest rate or burst a key may be given; far above what one key should ever need. */
export const MAX_RATE = 1_000_000;

/**
 * `RPS/BURST`, or `RPS` alone with a burst of twice the rate (the ratio of
 * the service defaults); `default` gives the key back the service defaults.
 */
export function parseRate(value: string): RateChange {
  const trimmed = value.trim();
  if (trimmed.toLowerCase() === 'default') return null;
  const match = /^(\d+)(?:\/(\d+))?$/.exec(trimmed);
  const rps = match ? Number(match[1]) : Number.NaN;
  const burst = match?.[2] !== undefined ? Number(match[2]) : Math.min(2 * rps, MAX_RATE);
  if (!(rps >= 1 && rps <= MAX_RATE && burst >= 1 && burst <= MAX_RATE)) {
    throw new CliError(
      `malformed --rate ${value}: expected RPS or RPS/BURST, whole numbers from 1 to ${MAX_RATE}, or default`,
    );
  }
  return { rps, burst };
}

export function parseGrants(values: readonly string[]): Record<string, number[]> {
  const grants: Record<string, number[]> = {};
  for (const value of values) {
    const equals = value.indexOf('=');
    if (equals < 0) throw new CliError(`malformed --grant ${value}: expected BOOK=SPORT,SPORT`);
    const book = value.slice(0, equals).trim();
    if (!BOOK_NAME.test(book)) throw new CliError(`malformed --grant ${value}: bad sportsbook name`);
    if (Object.hasOwn(grants, book)) throw new CliError(`--grant ${book} given twice`);
    const sports = splitList(value.slice(equals + 1)).map((item) =>
      toSportId(item, `sportsbook sport in --grant ${book}`),
    );
    grants[book] = [...new Set(sports)].sort((a, b) => a - b);
  }
  return grants;
}

function toSportId(item: string, what: string): number {
  const id = INTEGER.test(item) ? Number(item) : Number.NaN;
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) {
    throw new CliError(`malformed ${what}: ${item} is not a positive integer id`);
  }
  return id;
}
