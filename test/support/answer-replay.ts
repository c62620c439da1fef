import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { http } from './apps';

/** Headers that differ between any two answers (each request has its own id and spends the rate). */
const PER_REQUEST = ['x-request-id', 'ratelimit-remaining', 'date'];

/** An answer's headers without those that differ per request, to compare a replay with the full pipeline's answer. */
export function stableHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_REQUEST.includes(name)));
}

/** The value of the first `/metrics` line `pattern` matches (its first group), 0 when none does. */
export async function metricValue(app: INestApplication, pattern: RegExp): Promise<number> {
  const text = (await request(http(app)).get('/metrics').expect(200)).text;
  return Number(pattern.exec(text)?.[1] ?? 0);
}

/** Requests answered by a replay at the front door since the app started. */
export function answersReplayed(app: INestApplication): Promise<number> {
  return metricValue(app, /^http_answers_replayed_total (\d+)$/m);
}

/** Requests first answered at the front door (odds-passthrough's plain `GET /odds`) since the app started. */
export function answersFirstAtDoor(app: INestApplication): Promise<number> {
  return metricValue(app, /^http_answers_first_at_door_total (\d+)$/m);
}
