/**
 * Every subject of a deployment (or test run) carries its prefix, so several
 * of them share one NATS server without hearing each other.
 */
export function qualifySubject(prefix: string | undefined, subject: string): string {
  return prefix ? `${prefix}.${subject}` : subject;
}

/** The subject as the platform names it, without the deployment prefix. */
export function unqualifySubject(prefix: string | undefined, subject: string): string {
  return prefix && subject.startsWith(`${prefix}.`) ? subject.slice(prefix.length + 1) : subject;
}
