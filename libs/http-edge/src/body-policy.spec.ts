import { bodyFailure, bodyIsIgnored } from './body-policy';

describe('body policy', () => {
  it('ignores the body of methods that give it no meaning', () => {
    for (const method of ['GET', 'HEAD', 'DELETE', 'OPTIONS', 'get'])
      expect(bodyIsIgnored(method)).toBe(true);
    for (const method of ['POST', 'PUT', 'PATCH', 'FOO', undefined])
      expect(bodyIsIgnored(method)).toBe(false);
  });

  it('answers every body failure with a client status', () => {
    expect(bodyFailure({ status: 413, type: 'entity.too.large' }, 'gzip').status).toBe(413);
    expect(
      bodyFailure({ status: 415, type: 'encoding.unsupported', encoding: 'snappy' }, 'snappy').status,
    ).toBe(415);
    expect(bodyFailure({ status: 400, type: 'request.size.invalid' }, undefined).status).toBe(400);
    expect(bodyFailure({ status: 400, type: 'request.aborted' }, undefined).status).toBe(400);
  });

  it('names the encoding a corrupt body claimed, and never echoes the body', () => {
    expect(bodyFailure({ status: 400 }, 'GZIP')).toEqual({
      status: 400,
      message: 'request body is not valid gzip',
    });
    expect(bodyFailure({}, undefined)).toEqual({ status: 400, message: 'malformed request body' });
  });
});
