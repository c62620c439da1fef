import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

/** A Kubernetes object as read from YAML; the schema check types it properly. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [field: string]: unknown;
}

interface ImageRule {
  name: string;
  newName?: string;
  newTag?: string;
}

interface PatchRule {
  target: { kind: string; name: string };
  patch: string;
}

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  resources?: string[];
  images?: ImageRule[];
  replicas?: { name: string; count: number }[];
  patches?: PatchRule[];
}

/**
 * The kustomize features the manifests use, and no more: anything else in a
 * kustomization.yaml fails the render, so this renderer can never quietly
 * disagree with kustomize about a feature it does not implement.
 */
const SUPPORTED_FIELDS = new Set([
  'apiVersion',
  'kind',
  'namespace',
  'resources',
  'images',
  'replicas',
  'patches',
]);
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'PersistentVolume',
  'StorageClass',
]);
const SCALABLE = new Set(['Deployment', 'StatefulSet', 'ReplicaSet']);

export function loadManifests(file: string): K8sObject[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((document) => {
      if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0].message}`);
      return document.toJS() as K8sObject | null;
    })
    .filter((object): object is K8sObject => object !== null);
}

export function objectKey(object: K8sObject): string {
  return `${object.kind}/${object.metadata.namespace ?? ''}/${object.metadata.name}`;
}

export function renderKustomization(dir: string): K8sObject[] {
  const file = join(dir, 'kustomization.yaml');
  const kustomization = parse(readFileSync(file, 'utf8')) as Kustomization;
  for (const field of Object.keys(kustomization)) {
    if (!SUPPORTED_FIELDS.has(field)) throw new Error(`${file}: "${field}" is not rendered by this test`);
  }

  const objects: K8sObject[] = [];
  for (const resource of kustomization.resources ?? []) {
    const path = resolve(dir, resource);
    objects.push(...(statSync(path).isDirectory() ? renderKustomization(path) : loadManifests(path)));
  }
  const seen = new Set<string>();
  for (const object of objects) {
    const key = objectKey(object);
    if (seen.has(key)) throw new Error(`${file}: ${key} is defined twice`);
    seen.add(key);
  }

  if (kustomization.namespace) setNamespace(objects, kustomization.namespace, file);
  for (const rule of kustomization.patches ?? []) applyPatch(objects, rule, file);
  for (const rule of kustomization.replicas ?? []) setReplicas(objects, rule, file);
  for (const rule of kustomization.images ?? []) setImages(objects, rule, file);
  return objects;
}

function setNamespace(objects: K8sObject[], namespace: string, file: string): void {
  for (const object of objects) {
    if (object.kind === 'Namespace') {
      // kustomize renames Namespace objects too; the manifests never rely on it.
      if (object.metadata.name !== namespace)
        throw new Error(`${file}: Namespace ${object.metadata.name} renamed`);
    } else if (!CLUSTER_SCOPED.has(object.kind)) {
      object.metadata.namespace = namespace;
    }
  }
}

function matching(objects: K8sObject[], kind: string | undefined, name: string, file: string): K8sObject[] {
  const found = objects.filter((o) => (kind === undefined || o.kind === kind) && o.metadata.name === name);
  if (found.length === 0) throw new Error(`${file}: no ${kind ?? 'object'} named ${name} to transform`);
  return found;
}

function applyPatch(objects: K8sObject[], rule: PatchRule, file: string): void {
  const operations = parse(rule.patch) as unknown;
  if (!Array.isArray(operations))
    throw new Error(`${file}: only JSON 6902 patches are rendered by this test`);
  for (const object of matching(objects, rule.target.kind, rule.target.name, file)) {
    for (const operation of operations as JsonPatchOperation[]) applyJsonPatch(object, operation, file);
  }
}

function setReplicas(objects: K8sObject[], rule: { name: string; count: number }, file: string): void {
  const targets = matching(objects, undefined, rule.name, file).filter((o) => SCALABLE.has(o.kind));
  if (targets.length === 0) throw new Error(`${file}: ${rule.name} cannot be scaled`);
  for (const object of targets) (object.spec as Record<string, unknown>).replicas = rule.count;
}

function setImages(objects: K8sObject[], rule: ImageRule, file: string): void {
  const unsupported = Object.keys(rule).filter((field) => !['name', 'newName', 'newTag'].includes(field));
  if (unsupported.length > 0)
    throw new Error(`${file}: image fields ${unsupported.join(', ')} are not rendered`);
  let replaced = 0;
  for (const container of podContainers(objects)) {
    const image = splitImage(container.image);
    if (image.name !== rule.name) continue;
    container.image = `${rule.newName ?? image.name}:${rule.newTag ?? image.tag ?? 'latest'}`;
    replaced += 1;
  }
  if (replaced === 0) throw new Error(`${file}: no container uses image ${rule.name}`);
}

/** Name and tag of an image reference; a registry port is not a tag. */
export function splitImage(image: string): { name: string; tag?: string } {
  const colon = image.lastIndexOf(':');
  if (colon > image.lastIndexOf('/')) return { name: image.slice(0, colon), tag: image.slice(colon + 1) };
  return { name: image };
}

export interface Container {
  name: string;
  image: string;
  [field: string]: unknown;
}

export interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: { containers: Container[]; initContainers?: Container[]; [field: string]: unknown };
}

/** The pod template of a workload object, if it has one. */
export function podTemplate(object: K8sObject): PodTemplate | undefined {
  const spec = object.spec as { template?: PodTemplate } | undefined;
  return spec?.template?.spec?.containers ? spec.template : undefined;
}

export function podContainers(objects: K8sObject[]): Container[] {
  return objects.flatMap((object) => {
    const template = podTemplate(object);
    return template ? [...template.spec.containers, ...(template.spec.initContainers ?? [])] : [];
  });
}

interface JsonPatchOperation {
  op: string;
  path: string;
  value?: unknown;
}

/** RFC 6902 add, replace and remove, as kustomize applies them (a missing target is an error). */
function applyJsonPatch(document: object, operation: JsonPatchOperation, file: string): void {
  const tokens = operation.path
    .split('/')
    .slice(1)
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = tokens.pop();
  if (last === undefined) throw new Error(`${file}: patch path "${operation.path}" names the whole object`);
  let parent: unknown = document;
  for (const token of tokens) {
    parent = child(parent, token);
    if (parent === undefined) throw new Error(`${file}: patch path "${operation.path}" does not exist`);
  }
  if (typeof parent !== 'object' || parent === null)
    throw new Error(`${file}: bad patch path "${operation.path}"`);
  const value = structuredClone(operation.value);

  if (Array.isArray(parent)) {
    const list = parent as unknown[];
    const index = last === '-' ? list.length : Number(last);
    if (!Number.isInteger(index) || index < 0 || index > list.length) {
      throw new Error(`${file}: patch index "${operation.path}" out of range`);
    }
    if (operation.op === 'add') list.splice(index, 0, value);
    else if (index >= list.length) throw new Error(`${file}: patch path "${operation.path}" does not exist`);
    else if (operation.op === 'replace') list[index] = value;
    else if (operation.op === 'remove') list.splice(index, 1);
    else throw new Error(`${file}: patch op "${operation.op}" is not rendered by this test`);
    return;
  }
  const map = parent as Record<string, unknown>;
  if (operation.op === 'add') map[last] = value;
  else if (!(last in map)) throw new Error(`${file}: patch path "${operation.path}" does not exist`);
  else if (operation.op === 'replace') map[last] = value;
  else if (operation.op === 'remove') delete map[last];
  else throw new Error(`${file}: patch op "${operation.op}" is not rendered by this test`);
}

function child(parent: unknown, token: string): unknown {
  if (Array.isArray(parent)) return parent[Number(token)];
  if (typeof parent === 'object' && parent !== null) return (parent as Record<string, unknown>)[token];
  return undefined;
}
