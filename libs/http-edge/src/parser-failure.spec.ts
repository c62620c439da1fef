import { parserFailure } from './parser-failure';

describe('parserFailure', () => {
  it('answers a malformed request with 400 and the parser reason, never the request itself', () => {
    expect(
      parserFailure({
        code: 'HPE_INVALID_METHOD',
        reason: 'Invalid method encountered',
        rawPacket: Buffer.from('sk_x'),
      }),
    ).toEqual({
      status: 400,
      message: 'malformed HTTP request: invalid method encountered',
    });
    expect(parserFailure({ code: 'HPE_INVALID_CHUNK_SIZE' })).toEqual({
      status: 400,
      message: 'malformed HTTP request',
    });
  });

  it('tells a request line that is too long (414) from too many header bytes (431)', () => {
    const longLine = Buffer.from(`GET /?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n`);
    expect(parserFailure({ code: 'HPE_HEADER_OVERFLOW', rawPacket: longLine })?.status).toBe(414);
    const unfinishedLine = Buffer.from(`GET /${'x'.repeat(60_000)}`);
    expect(parserFailure({ code: 'HPE_HEADER_OVERFLOW', rawPacket: unfinishedLine })?.status).toBe(414);
    const bigHeader = Buffer.from(`GET / HTTP/1.1\r\nX-Big: ${'x'.repeat(20_000)}\r\n`);
    expect(parserFailure({ code: 'HPE_HEADER_OVERFLOW', rawPacket: bigHeader })?.status).toBe(431);
    const middleChunk = Buffer.from('x'.repeat(20_000));
    expect(parserFailure({ code: 'HPE_HEADER_OVERFLOW', rawPacket: middleChunk })?.status).toBe(431);
    expect(parserFailure({ code: 'HPE_HEADER_OVERFLOW' })?.status).toBe(431);
  });

  it('answers timeouts with 408 and oversized chunk extensions with 413', () => {
    expect(parserFailure({ code: 'ERR_HTTP_REQUEST_TIMEOUT' })?.status).toBe(408);
    expect(parserFailure({ code: 'HPE_CHUNK_EXTENSIONS_OVERFLOW' })?.status).toBe(413);
  });

  it('has no answer for a connection that failed', () => {
    expect(parserFailure({ code: 'ECONNRESET' })).toBeUndefined();
    expect(parserFailure({ code: 'EPIPE' })).toBeUndefined();
    expect(parserFailure({})).toBeUndefined();
  });
});
