import {
  type ArgumentsHost,
  BadRequestException,
  HttpException,
  HttpStatus,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import { AuthError } from './auth-failure';
import { serviceErrorFilter } from './service-error-filter';

/** Renders `exception` through `filter` as Nest calls it for an HTTP request. */
function renderThrough(filter: ReturnType<typeof serviceErrorFilter>, exception: unknown) {
  const response = {
    status: jest.fn<unknown, [number]>(),
    json: jest.fn<unknown, [unknown]>(),
  };
  response.status.mockReturnValue(response);
  response.json.mockReturnValue(response);
  const host = {
    switchToHttp: () => ({ getResponse: () => response, getRequest: () => undefined }),
  } as unknown as ArgumentsHost;
  new filter().catch(exception, host);
  expect(response.status).toHaveBeenCalledTimes(1);
  expect(response.json).toHaveBeenCalledTimes(1);
  return { status: response.status.mock.calls[0][0], body: response.json.mock.calls[0][0] };
}

describe.each(['detail', 'error'] as const)('serviceErrorFilter with field %s', (field) => {
  const filter = serviceErrorFilter({
    name: 'TestFilter',
    field,
    wordAuthFailure: (failure) => `auth ${failure.kind}`,
  });
  const render = (exception: unknown) => renderThrough(filter, exception);
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
  ])('renders %s with its status, worded by the service', (error, status) => {
    expect(render(error)).toEqual({ status, body: { [field]: `auth ${error.failure.kind}` } });
  });

  it('redacts a key from an HTTP exception message', () => {
    const rendered = render(new NotFoundException('Cannot GET /v1/x?key=sk_secret'));
    expect(rendered).toEqual({ status: 404, body: { [field]: 'Cannot GET /v1/x?key=[redacted]' } });
  });

  it('joins a list of validation messages', () => {
    expect(
      render(new BadRequestException(['league must be an integer', 'limit must not exceed 100'])),
    ).toEqual({
      status: 400,
      body: { [field]: 'league must be an integer; limit must not exceed 100' },
    });
  });

  it('renders an HTTP exception with a plain string body', () => {
    expect(render(new HttpException('slow down', HttpStatus.TOO_MANY_REQUESTS))).toEqual({
      status: 429,
      body: { [field]: 'slow down' },
    });
  });

  it('renders an unknown error as 500 without its message, and logs it redacted', () => {
    expect(render(new Error('database said no to sk_secret'))).toEqual({
      status: 500,
      body: { [field]: 'internal server error' },
    });
    expect(logError).toHaveBeenCalledTimes(1);
    const logged = JSON.stringify(logError.mock.calls);
    expect(logged).toContain('database said no');
    expect(logged).not.toContain('sk_secret');
  });

  it('renders something thrown that is not an Error as 500', () => {
    expect(render('sk_secret went wrong')).toEqual({
      status: 500,
      body: { [field]: 'internal server error' },
    });
    expect(JSON.stringify(logError.mock.calls)).not.toContain('sk_secret');
  });
});
