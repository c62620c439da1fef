import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { K8sObject } from './kustomize';

export interface SchemaResult {
  key: string;
  error: string | null;
}

/** Runs validate-k8s.mjs (see there why it is a separate process) over the objects. */
export function validateAgainstSchemas(objects: readonly K8sObject[]): SchemaResult[] {
  const output = execFileSync(process.execPath, [join(__dirname, 'validate-k8s.mjs')], {
    input: JSON.stringify(objects),
    cwd: join(__dirname, '..', '..', '..'),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return JSON.parse(output) as SchemaResult[];
}
