import { headers } from 'nats';
import { JetStreamRefusal, readAck } from './ack-inbox';

function reply(body: string, meta?: ReturnType<typeof headers>) {
  return { data: Buffer.from(body), headers: meta };
}

describe('readAck', () => {
  it('reads the sequence of a stored publish, and whether it was a duplicate', () => {
    expect(readAck(reply('{"stream":"LOG","seq":41}'))).toEqual({ seq: 41, duplicate: false });
    expect(readAck(reply('{"stream":"LOG","seq":41,"duplicate":true}'))).toEqual({
      seq: 41,
      duplicate: true,
    });
  });

  it('reports a refusal with the API error as nats.js does, so a wrong last sequence is recognised', () => {
    const refusal = readAck(
      reply('{"error":{"code":400,"err_code":10071,"description":"wrong last sequence: 7"}}'),
    );
    expect(refusal).toBeInstanceOf(JetStreamRefusal);
    expect((refusal as JetStreamRefusal).api_error.err_code).toBe(10071);
    expect((refusal as Error).message).toBe('wrong last sequence: 7');
  });

  it('fails when no stream takes the subject, and on an answer it cannot read', () => {
    expect((readAck(reply('', headers(503, 'No Responders'))) as Error).message).toMatch(/503 no responders/);
    expect(readAck(reply('not json'))).toBeInstanceOf(Error);
    expect(readAck(reply('{"stream":"LOG"}'))).toBeInstanceOf(Error);
  });
});
