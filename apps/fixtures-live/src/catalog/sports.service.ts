import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { LastKnown } from '../common/last-known';
import type { SportDto } from './sport.dto';

/** Sports lists kept to serve through a PostgreSQL outage, one per allowlist. */
const LAST_KNOWN_LISTS = 1000;

@Injectable()
export class SportsService {
  private readonly lastKnown = new LastKnown<SportDto[]>(LAST_KNOWN_LISTS);

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The catalog's sports among `allowed`, by id; while PostgreSQL is away, as last read. */
  async listVisible(allowed: readonly number[]): Promise<SportDto[]> {
    if (allowed.length === 0) return [];
    return this.lastKnown.read(allowed.join(','), () =>
      this.db.query<SportDto[]>('SELECT id, name FROM fixtures.sports WHERE id = ANY($1) ORDER BY id', [
        [...allowed],
      ]),
    );
  }
}
