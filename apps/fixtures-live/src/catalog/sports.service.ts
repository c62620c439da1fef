import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import { LastKnown } from '../common/last-known';
import type { SportDto } from './sport.dto';
import { SportEntity } from './sport.entity';

/** Sports lists kept to serve through a PostgreSQL outage, one per allowlist. */
const LAST_KNOWN_LISTS = 1000;

@Injectable()
export class SportsService {
  private readonly lastKnown = new LastKnown<SportDto[]>(LAST_KNOWN_LISTS);

  constructor(@InjectRepository(SportEntity) private readonly sports: Repository<SportEntity>) {}

  /** The catalog's sports among `allowed`, by id; while PostgreSQL is away, as last read. */
  async listVisible(allowed: readonly number[]): Promise<SportDto[]> {
    if (allowed.length === 0) return [];
    return this.lastKnown.read(allowed.join(','), async () => {
      const rows = await this.sports.find({
        select: { id: true, name: true },
        where: { id: In([...allowed]) },
        order: { id: 'ASC' },
      });
      return rows.map(({ id, name }) => ({ id, name }));
    });
  }
}
