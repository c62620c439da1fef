import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import type { SportDto } from './sport.dto';
import { SportEntity } from './sport.entity';

@Injectable()
export class SportsService {
  constructor(@InjectRepository(SportEntity) private readonly sports: Repository<SportEntity>) {}

  /** The catalog's sports among `allowed`, by id. */
  async listVisible(allowed: readonly number[]): Promise<SportDto[]> {
    if (allowed.length === 0) return [];
    const rows = await this.sports.find({
      select: { id: true, name: true },
      where: { id: In([...allowed]) },
      order: { id: 'ASC' },
    });
    return rows.map(({ id, name }) => ({ id, name }));
  }
}
