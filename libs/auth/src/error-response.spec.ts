import { NotFoundException } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { toErrorResponse } from './error-response';

const logger = { log: jest.fn(), warn: jest.fn(), error: jest.fn() };
const word = () => 'auth';

describe('toErrorResponse', () => {
  beforeEach(() => jest.clearAllMocks());

  it('answers 503 "database unavailable" when PostgreSQL is out of reach, logged without a stack', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(toErrorResponse(refused, word, logger)).toEqual({ status: 503, message: 'database unavailable' });
    const shutdown = new QueryFailedError(
      'SELECT 1',
      [],
      Object.assign(new Error('terminating'), { code: '57P01' }),
    );
    expect(toErrorResponse(shutdown, word, logger)).toEqual({ status: 503, message: 'database unavailable' });
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('keeps HTTP errors and logs anything else as a 500 with its stack', () => {
    expect(toErrorResponse(new NotFoundException('match not found'), word, logger)).toEqual({
      status: 404,
      message: 'match not found',
    });
    const bug = new TypeError('cannot read x of undefined');
    expect(toErrorResponse(bug, word, logger)).toEqual({ status: 500, message: 'internal server error' });
    expect(logger.error).toHaveBeenCalledWith(expect.stringContaining('TypeError: cannot read x'));
  });

  it("names the request's id on the log line of a 500 or 503 when there is one", () => {
    toErrorResponse(new TypeError('boom'), word, logger, 'req-7');
    const [[line]] = logger.error.mock.calls as [[{ reqId: string; msg: string }]];
    expect(line.reqId).toBe('req-7');
    expect(line.msg).toContain('TypeError: boom');
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    toErrorResponse(refused, word, logger, 'req-8');
    expect(logger.warn).toHaveBeenCalledWith({ reqId: 'req-8', msg: 'Answered 503: connect ECONNREFUSED' });
  });
});
