import { redactKeys } from '@app/observability';

export type FrameResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

export type ClientFrame = Readonly<Record<string, unknown>>;

/** Longest client-supplied text echoed back in an error frame. */
const ECHO_LIMIT = 40;

/** A client's text frame as a JSON object, or the reason it is not one. */
export function parseClientFrame(text: string): FrameResult<ClientFrame> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'malformed JSON: the frame is not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: 'invalid frame: expected a JSON object' };
  }
  return { ok: true, value: value as ClientFrame };
}

/** The frame's `action`, checked against the actions the stream knows. */
export function readAction<A extends string>(frame: ClientFrame, known: readonly A[]): FrameResult<A> {
  const action = frame.action;
  if (action === undefined) return { ok: false, error: 'missing field: action' };
  if (typeof action !== 'string') return { ok: false, error: 'invalid action: expected a string' };
  if (!(known as readonly string[]).includes(action)) {
    return { ok: false, error: `unknown action: ${echo(action)} (expected ${known.join(', ')})` };
  }
  return { ok: true, value: action as A };
}

function echo(text: string): string {
  const shown = text.length > ECHO_LIMIT ? `${text.slice(0, ECHO_LIMIT)}…` : text;
  return JSON.stringify(redactKeys(shown));
}
