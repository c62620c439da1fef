import type { Type } from '@nestjs/common';
import { MESSAGE_METADATA } from '@nestjs/websockets/constants';
import { parseClientFrame, readAction } from '@app/streaming';
import { frameProblem } from '../../support/frame-problem';

export type GatewayReading = { ok: true; action: string } | { ok: false; error: string };

/**
 * Reads a client frame the way a running gateway does: the adapter picks the
 * `@SubscribeMessage` handler by `action`, and the handler's body DTO (its
 * last parameter) is validated by the frame validation pipe.
 */
export async function gatewayReads(gateway: Type, text: string): Promise<GatewayReading> {
  const prototype = gateway.prototype as object;
  const handlers = new Map<string, string>();
  for (const name of Object.getOwnPropertyNames(prototype)) {
    const method: unknown = Object.getOwnPropertyDescriptor(prototype, name)?.value;
    const action: unknown =
      typeof method === 'function' ? Reflect.getMetadata(MESSAGE_METADATA, method) : undefined;
    if (typeof action === 'string') handlers.set(action, name);
  }
  const frame = parseClientFrame(text);
  if (!frame.ok) return frame;
  const action = readAction(frame.value, [...handlers.keys()]);
  if (!action.ok) return action;
  const types = Reflect.getMetadata('design:paramtypes', prototype, handlers.get(action.value)!) as Type[];
  const problem = await frameProblem(types[types.length - 1], frame.value);
  return problem === undefined ? { ok: true, action: action.value } : { ok: false, error: problem };
}
