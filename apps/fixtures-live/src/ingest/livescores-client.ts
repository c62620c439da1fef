import { Injectable } from '@nestjs/common';
import { withDeadline } from '@app/clock';
import { ConfigService } from '@nestjs/config';
import type { FixturesEnv } from '../config/fixtures.env';
import type { ParseResult } from '../upstream/parse-result';

/** Longest wait for one provider answer; the kit endpoint is slow but never this slow. */
const REQUEST_TIMEOUT_MS = 10_000;

/** A provider answer we could not use: an HTTP error, a timeout, garbage. Logged and retried, never fatal. */
export class FeedFault extends Error {
  constructor(
    readonly path: string,
    problem: string,
    readonly status?: number,
  ) {
    super(`provider ${path}: ${problem}`);
    this.name = 'FeedFault';
  }
}

/** HTTP side of the livescores provider: every body is checked by its parser before use. */
@Injectable()
export class LivescoresClient {
  readonly baseUrl: string;

  constructor(config: ConfigService<FixturesEnv, true>) {
    this.baseUrl = config.get('FIXTURES_UPSTREAM_URL', { infer: true }).replace(/\/+$/, '');
  }

  /** The WebSocket URL of the live stream. */
  get liveUrl(): string {
    return `${this.baseUrl.replace(/^http/, 'ws')}/live`;
  }

  /** GETs `path` and parses the body; 404 gives null so callers can tell "not yet" from a fault. */
  async get<T>(path: string, parse: (body: unknown) => ParseResult<T>): Promise<T | null> {
    return withDeadline(REQUEST_TIMEOUT_MS, (signal) => this.fetchParsed(path, parse, signal));
  }

  private async fetchParsed<T>(
    path: string,
    parse: (body: unknown) => ParseResult<T>,
    signal: AbortSignal,
  ): Promise<T | null> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, { signal, headers: { accept: 'application/json' } });
    } catch (error) {
      throw new FeedFault(path, error instanceof Error ? error.message : String(error));
    }
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new FeedFault(path, `HTTP ${response.status}`, response.status);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new FeedFault(path, 'body is not JSON');
    }
    const parsed = parse(body);
    if (!parsed.ok) throw new FeedFault(path, parsed.error);
    return parsed.value;
  }

  /** Like `get`, for lists that must exist: a 404 is a fault too. */
  async list<T>(path: string, parse: (body: unknown) => ParseResult<T[]>): Promise<T[]> {
    const value = await this.get(path, parse);
    if (value === null) throw new FeedFault(path, 'HTTP 404', 404);
    return value;
  }
}

export function describeFault(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
