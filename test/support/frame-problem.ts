import type { Type } from '@nestjs/common';
import { WsException } from '@nestjs/websockets';
import { frameValidationPipe } from '@app/streaming';

/** What the frame validation pipe says about a frame as a handler's body DTO; undefined when it passes. */
export async function frameProblem(metatype: Type, frame: object): Promise<string | undefined> {
  try {
    await frameValidationPipe().transform(frame, { type: 'body', metatype });
    return undefined;
  } catch (error) {
    if (!(error instanceof WsException)) throw error;
    const problem = error.getError();
    return typeof problem === 'string' ? problem : JSON.stringify(problem);
  }
}
