// Validates Kubernetes objects against the schemas of the kubernetes-models
// package. That package is ESM-only and jest runs CommonJS, so the tests run
// this script as a child process: objects as a JSON array on stdin, one
// result per object on stdout.
import { readFileSync } from 'node:fs';

const objects = JSON.parse(readFileSync(0, 'utf8'));
const results = [];
for (const object of objects) {
  const key = `${object.kind}/${object.metadata?.name}`;
  let Model;
  try {
    Model = (await import(`kubernetes-models/${object.apiVersion}/${object.kind}`))[object.kind];
  } catch {
    results.push({ key, error: `no schema for ${object.apiVersion} ${object.kind}` });
    continue;
  }
  try {
    new Model(object).validate();
    results.push({ key, error: null });
  } catch (error) {
    results.push({ key, error: error instanceof Error ? error.message : String(error) });
  }
}
process.stdout.write(JSON.stringify(results));
