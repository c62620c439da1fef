import { readdirSync } from 'node:fs';
import { MIGRATIONS } from './index';

/** TypeORM orders migrations by the last 13 characters of the class name, read as a number. */
const timestampOf = (name: string) => /(\d{13})$/.exec(name)?.[1];

describe('MIGRATIONS', () => {
  const names = MIGRATIONS.map((migration) => migration.name);

  it('name every class with a 13-digit millisecond timestamp and nothing longer', () => {
    for (const name of names)
      expect({ name, valid: /^[A-Za-z]+\d{13}$/.test(name) }).toEqual({ name, valid: true });
  });

  it('are listed in timestamp order, as TypeORM will run them', () => {
    const stamps = names.map((name) => Number(timestampOf(name)));
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
    expect(new Set(stamps).size).toBe(stamps.length);
  });

  it('live in files named after the same timestamp', () => {
    const files = readdirSync(__dirname).filter(
      (file) => /^\d+-.+\.ts$/.test(file) && !file.endsWith('.spec.ts'),
    );
    expect(files.map((file) => file.split('-')[0]).sort()).toEqual(
      names.map((name) => timestampOf(name)).sort(),
    );
  });
});
