import {
  type ArgumentsHost,
  BadRequestException,
  HttpException,
  HttpStatus,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import { AuthError } from '@app/auth';
import { OddsExceptionFilter } from './odds-exception.filter';

function fakeHost() {
  const response = {
    status: jest.fn<unknown, [number]>(),
    json: jest.fn<unknown, [unknown]>(),
  };
  response.status.mockReturnValue(response);
  response.json.mockReturnValue(response);
  const host = {
    switchToHttp: () => ({ getResponse: () => response, getRequest: () => undefined }),
  } as unknown as ArgumentsHost;
  return { host, response };
}

function render(exception: unknown) {
  const { host, response } = fakeHost();
  new OddsExceptionFilter().catch(exception, host);
  expect(response.status).toHaveBeenCalledTimes(1);
  expect(response.json).toHaveBeenCalledTimes(1);
  return {
    status: response.status.mock.calls[0][0],
    body: response.json.mock.calls[0][0],
  };
}

describe('OddsExceptionFilter', () => {
  let logError: jest.SpyInstance;

  beforeEach(() => {
    logError = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });

  afterEach(() => {
    logError.mockRestore();
  });

  it.each([
    [new AuthError({ kind: 'missing_key' }), 401],
    [new AuthError({ kind: 'invalid_key', reason: 'expired' }), 401],
    [new AuthError({ kind: 'missing_scope', mode: 'all', scopes: ['odds'] }), 403],
    [new AuthError({ kind: 'backend_unavailable' }), 503],
  ])('renders %s with its status and an error', (error, status) => {
    const rendered = render(error);
    expect(rendered.status).toBe(status);
    expect(rendered.body).toEqual({ error: expect.any(String) as unknown });
  });

  it('words an AuthError with the public error texts', () => {
    expect(render(new AuthError({ kind: 'missing_scope', mode: 'all', scopes: ['odds'] }))).toEqual({
      status: 403,
      body: { error: 'missing required scope: odds' },
    });
    expect(render(new AuthError({ kind: 'missing_key' }))).toEqual({
      status: 401,
      body: { error: 'invalid or inactive API key' },
    });
    expect(render(new AuthError({ kind: 'sportsbook_not_granted', book: 'book' }))).toEqual({
      status: 403,
      body: { error: 'API key not permitted for sportsbook: book' },
    });
    expect(render(new AuthError({ kind: 'sport_not_granted', sport: 29 }))).toEqual({
      status: 403,
      body: { error: 'API key not permitted for sport 29' },
    });
  });

  it('redacts a key from an HTTP exception message', () => {
    const rendered = render(new NotFoundException('Cannot GET /v1/x?key=sk_secret'));
    expect(rendered.status).toBe(404);
    expect(rendered.body).toEqual({ error: 'Cannot GET /v1/x?key=[redacted]' });
    expect(JSON.stringify(rendered.body)).not.toContain('sk_secret');
  });

  it('joins a list of validation messages', () => {
    expect(
      render(new BadRequestException(['league must be an integer', 'limit must not exceed 100'])),
    ).toEqual({
      status: 400,
      body: { error: 'league must be an integer; limit must not exceed 100' },
    });
  });

  it('renders an HTTP exception with a plain string body', () => {
    expect(render(new HttpException('slow down', HttpStatus.TOO_MANY_REQUESTS))).toEqual({
      status: 429,
      body: { error: 'slow down' },
    });
  });

  it('renders an unknown error as 500 without its message, and logs it redacted', () => {
    const rendered = render(new Error('database said no to sk_secret'));
    expect(rendered).toEqual({ status: 500, body: { error: 'internal server error' } });
    expect(logError).toHaveBeenCalledTimes(1);
    const logged = JSON.stringify(logError.mock.calls);
    expect(logged).toContain('database said no');
    expect(logged).not.toContain('sk_secret');
  });

  it('renders something thrown that is not an Error as 500', () => {
    expect(render('sk_secret went wrong')).toEqual({ status: 500, body: { error: 'internal server error' } });
    expect(JSON.stringify(logError.mock.calls)).not.toContain('sk_secret');
  });
});
