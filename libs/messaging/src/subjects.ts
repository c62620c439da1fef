/**
 * Every NATS subject the platform uses and the payload it carries, in one
 * typed place. Publishers and subscribers go through `NatsClient`, which only
 * accepts subjects declared here.
 */
export interface KeysChangedEvent {
  /** What changed; subscribers currently drop every cached decision either way. */
  readonly change: 'account' | 'key';
  readonly accountId?: string;
  readonly keyId?: string;
  /** ISO time of the change, for logs and metrics. */
  readonly at: string;
}

export interface SubjectPayloads {
  'auth.keys.changed': KeysChangedEvent;
}

export type Subject = keyof SubjectPayloads;

export const Subjects = {
  authKeysChanged: 'auth.keys.changed',
} as const satisfies Record<string, Subject>;
