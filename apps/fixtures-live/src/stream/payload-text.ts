/** The payload of a NATS message as text, decoded once per message per replica. */
export function payloadText(data: Uint8Array): string {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8');
}
