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

/**
 * Whether `subject` is one a subscription to `pattern` receives, by NATS's
 * rules: `*` stands for one token, a final `>` for one or more.
 */
export function subjectMatches(pattern: string, subject: string): boolean {
  return tokensMatch(pattern.split('.'), subject.split('.'));
}

/** `subjectMatches` on subjects already split at their dots, for callers that match one subject often. */
export function tokensMatch(wanted: readonly string[], tokens: readonly string[]): boolean {
  for (let i = 0; i < wanted.length; i++) {
    if (wanted[i] === '>') return i === wanted.length - 1 && tokens.length > i;
    if (i >= tokens.length || (wanted[i] !== '*' && wanted[i] !== tokens[i])) return false;
  }
  return wanted.length === tokens.length;
}
