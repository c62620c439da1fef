import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import {
  DEFAULT_BOOK_PREFIX,
  FIXTURES_BASE_PATH,
  KNOWN_ENV,
  METRICS_ROUTES,
  PROGRAMS,
  ROOT,
  SERVICES,
  packageJson,
  service,
} from './support/app-facts';
import { validateAgainstSchemas } from './support/k8s-schema';
import {
  type Container,
  type K8sObject,
  type PodTemplate,
  loadManifests,
  objectKey,
  podTemplate,
  renderKustomization,
  splitImage,
} from './support/kustomize';

const K8S = join(ROOT, 'k8s');
const NAMESPACE = 'sports-data';
const SECRET = { name: 'sports-data-database', key: 'DATABASE_URL' };
/** The application's own shutdown budget (it exits within 10 s of SIGTERM), on top of any preStop pause. */
const APP_SHUTDOWN_SECONDS = 10;

const RENDERINGS: Record<string, K8sObject[]> = {
  base: renderKustomization(join(K8S, 'base')),
  dev: renderKustomization(join(K8S, 'overlays', 'dev')),
  prod: renderKustomization(join(K8S, 'overlays', 'prod')),
};

function hasKubectl(): boolean {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return yamlFiles(path);
    return entry.name.endsWith('.yaml') && entry.name !== 'kustomization.yaml' ? [path] : [];
  });
}

interface Probe {
  httpGet?: { path: string; port: number | string };
  tcpSocket?: { port: number | string };
}
interface ContainerSpec extends Container {
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  envFrom?: { configMapRef?: { name: string } }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    runAsNonRoot?: boolean;
    runAsUser?: number;
    capabilities?: { drop?: string[] };
    seccompProfile?: { type: string };
  };
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
}
interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}
interface DeploymentSpec {
  replicas: number;
  strategy: {
    type: string;
    rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string };
  };
}
interface BudgetSpec {
  selector: LabelSelector;
  minAvailable?: number | string;
  maxUnavailable?: number | string;
}
interface PodAntiAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: unknown[];
  preferredDuringSchedulingIgnoredDuringExecution?: {
    weight: number;
    podAffinityTerm: { topologyKey: string; labelSelector: LabelSelector };
  }[];
}

const spec = <T>(object: K8sObject): T => object.spec as T;
const ofKind = (objects: K8sObject[], kind: string) => objects.filter((object) => object.kind === kind);
const byName = (objects: K8sObject[], kind: string, name: string) =>
  objects.find((object) => object.kind === kind && object.metadata.name === name);

/** Label-selector semantics as the API server applies them (only the operators the manifests use). */
function selects(selector: LabelSelector, labels: Record<string, string> = {}): boolean {
  const exact = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const expressions = (selector.matchExpressions ?? []).every((expression) => {
    if (expression.operator === 'In') return (expression.values ?? []).includes(labels[expression.key]);
    if (expression.operator === 'Exists') return expression.key in labels;
    throw new Error(`selector operator ${expression.operator} not handled`);
  });
  return exact && expressions;
}

function pods(objects: K8sObject[]): { owner: K8sObject; template: PodTemplate }[] {
  return objects.flatMap((owner) => {
    const template = podTemplate(owner);
    return template ? [{ owner, template }] : [];
  });
}

function selectedPods(objects: K8sObject[], selector: LabelSelector) {
  return pods(objects).filter(({ template }) => selects(selector, template.metadata?.labels));
}

/** Whether a selector takes in this workload's pods and no others. */
function selectsOnly(objects: K8sObject[], selector: LabelSelector, owner: K8sObject): boolean {
  const owners = selectedPods(objects, selector).map((pod) => pod.owner);
  return owners.length === 1 && owners[0] === owner;
}

/** The PodDisruptionBudgets whose selector takes in any pod of this workload. */
const budgetsOf = (objects: K8sObject[], owner: K8sObject) =>
  ofKind(objects, 'PodDisruptionBudget').filter((pdb) =>
    selectedPods(objects, spec<BudgetSpec>(pdb).selector).some((pod) => pod.owner === owner),
  );

/** The service a container runs, from the program its entrypoint argument names. */
const programOf = (container: ContainerSpec) => container.args?.[0];
const envValue = (container: ContainerSpec, name: string) =>
  container.env?.find((e) => e.name === name)?.value;

/** NODE_OPTIONS as the container sees it: its own env first, else the ConfigMaps it reads. */
function nodeOptions(objects: K8sObject[], container: ContainerSpec): string | undefined {
  const own = envValue(container, 'NODE_OPTIONS');
  if (own !== undefined) return own;
  for (const source of container.envFrom ?? []) {
    const map = source.configMapRef && byName(objects, 'ConfigMap', source.configMapRef.name);
    const value = (map as { data?: Record<string, string> } | undefined)?.data?.NODE_OPTIONS;
    if (value !== undefined) return value;
  }
  return undefined;
}

/** A Kubernetes memory quantity (`512Mi`, `1Gi`) in MiB. */
function mebibytes(quantity: string): number {
  const match = /^(\d+)(Mi|Gi)$/.exec(quantity);
  if (!match) return NaN;
  return Number(match[1]) * (match[2] === 'Gi' ? 1024 : 1);
}

function appContainers(objects: K8sObject[]) {
  return ofKind(objects, 'Deployment').flatMap((deployment) =>
    podTemplate(deployment)!
      .spec.containers.map((container) => container as ContainerSpec)
      .filter((container) => SERVICES.some((s) => s.name === programOf(container)))
      .map((container) => ({ deployment, container, facts: service(programOf(container)!) })),
  );
}

describe('Kubernetes manifests', () => {
  it('every manifest file parses and every object in it is valid against the Kubernetes schemas', () => {
    const files = yamlFiles(K8S);
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      for (const document of parseAllDocuments(readFileSync(file, 'utf8')))
        expect(document.errors).toEqual([]);
    }
    const objects = files.flatMap((file) => loadManifests(file));
    const invalid = validateAgainstSchemas(objects).filter((result) => result.error !== null);
    expect(invalid).toEqual([]);
  });

  it('the schema check rejects an object that breaks the schema', () => {
    const [result] = validateAgainstSchemas([
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'broken' },
        spec: {
          selector: {},
          template: { spec: { containers: [{ name: 'x', ports: [{ containerPort: 'http' }] }] } },
        },
      },
    ]);
    expect(result.error).toMatch(/containerPort must be integer/);
  });

  // Reported as skipped, not passed, on machines without kubectl.
  const withKubectl = hasKubectl() ? it : it.skip;
  withKubectl('the renderer agrees with kubectl kustomize', () => {
    for (const [name, objects] of Object.entries(RENDERINGS)) {
      const dir = name === 'base' ? join(K8S, 'base') : join(K8S, 'overlays', name);
      const rendered = parseAllDocuments(
        execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8' }),
      ).map((document) => document.toJS() as K8sObject);
      const theirs = Object.fromEntries(rendered.map((object) => [objectKey(object), object]));
      const ours = Object.fromEntries(objects.map((object) => [objectKey(object), object]));
      expect(ours).toEqual(theirs);
    }
  });
});

describe.each(Object.keys(RENDERINGS))('kustomize rendering %s', (rendering) => {
  const objects = RENDERINGS[rendering];

  it('is valid against the Kubernetes schemas', () => {
    expect(validateAgainstSchemas(objects).filter((result) => result.error !== null)).toEqual([]);
  });

  it('puts every namespaced object into the namespace it creates', () => {
    expect(byName(objects, 'Namespace', NAMESPACE)).toBeDefined();
    for (const object of objects.filter((o) => o.kind !== 'Namespace')) {
      expect([objectKey(object), object.metadata.namespace]).toEqual([objectKey(object), NAMESPACE]);
    }
  });

  it('gives every container requests, limits and a non-root, read-only, unprivileged security context', () => {
    for (const { owner, template } of pods(objects)) {
      const podSecurity = template.spec.securityContext as ContainerSpec['securityContext'] | undefined;
      expect(template.spec.automountServiceAccountToken).toBe(false);
      // The namespace enforces the restricted Pod Security Standard, which requires it.
      expect([objectKey(owner), podSecurity?.seccompProfile?.type]).toEqual([
        objectKey(owner),
        'RuntimeDefault',
      ]);
      for (const container of template.spec.containers as ContainerSpec[]) {
        const where = `${objectKey(owner)} ${container.name}`;
        const security = container.securityContext ?? {};
        expect({ where, limits: Object.keys(container.resources?.limits ?? {}).sort() }).toEqual({
          where,
          limits: ['cpu', 'memory'],
        });
        expect({ where, requests: Object.keys(container.resources?.requests ?? {}).sort() }).toEqual({
          where,
          requests: ['cpu', 'memory'],
        });
        expect({ where, nonRoot: security.runAsNonRoot ?? podSecurity?.runAsNonRoot }).toEqual({
          where,
          nonRoot: true,
        });
        expect({ where, user: security.runAsUser ?? podSecurity?.runAsUser }).not.toEqual({ where, user: 0 });
        expect({ where, ...security, runAsUser: undefined }).toMatchObject({
          where,
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
      }
    }
  });

  it('runs every container from the one platform image with a program its entrypoint knows', () => {
    const images = new Set(
      pods(objects).flatMap(({ template }) => template.spec.containers.map((c) => c.image)),
    );
    expect(images.size).toBe(1);
    const [image] = [...images];
    if (rendering === 'base') expect(image).toBe(`sports-data-platform:${packageJson().version}`);
    else expect(splitImage(image).tag).not.toBe('latest');
    for (const { template } of pods(objects)) {
      for (const container of template.spec.containers as ContainerSpec[]) {
        expect(PROGRAMS).toContain(programOf(container));
      }
    }
  });

  it('has per service an ingest and an api Deployment in their ROLEs, the api rolling with an HPA and a PDB', () => {
    for (const facts of SERVICES) {
      const ingest = byName(objects, 'Deployment', `${facts.name}-ingest`)!;
      const api = byName(objects, 'Deployment', `${facts.name}-api`)!;
      const apiSpec = spec<DeploymentSpec>(api);
      expect(apiSpec.strategy.type).toBe('RollingUpdate');
      for (const [deployment, role] of [
        [ingest, 'ingest'],
        [api, 'api'],
      ] as const) {
        const [container] = podTemplate(deployment)!.spec.containers as ContainerSpec[];
        expect([deployment.metadata.name, programOf(container), envValue(container, 'ROLE')]).toEqual([
          deployment.metadata.name,
          facts.name,
          role,
        ]);
      }

      const hpa = ofKind(objects, 'HorizontalPodAutoscaler').find(
        (o) => spec<{ scaleTargetRef: { name: string } }>(o).scaleTargetRef.name === api.metadata.name,
      )!;
      const hpaSpec = spec<{
        scaleTargetRef: { apiVersion: string; kind: string };
        minReplicas: number;
        maxReplicas: number;
        metrics: { resource?: { name: string } }[];
      }>(hpa);
      expect(hpaSpec.scaleTargetRef).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment' });
      expect(hpaSpec.metrics.map((metric) => metric.resource?.name)).toEqual(['cpu']);
      expect(hpaSpec.minReplicas).toBe(apiSpec.replicas);
      expect(hpaSpec.maxReplicas).toBeGreaterThan(hpaSpec.minReplicas);
      if (rendering !== 'dev') expect(apiSpec.replicas).toBeGreaterThanOrEqual(2);

      const pdbs = budgetsOf(objects, api);
      expect(pdbs).toHaveLength(1);
      expect(selectedPods(objects, spec<BudgetSpec>(pdbs[0]).selector).map((p) => p.owner)).toEqual([api]);
    }
  });

  it('runs two ingest pods per service, rolled one new pod ahead, so a ready standby is always there', () => {
    for (const facts of SERVICES) {
      const ingest = byName(objects, 'Deployment', `${facts.name}-ingest`)!;
      const where = ingest.metadata.name;
      const { replicas, strategy } = spec<DeploymentSpec>(ingest);
      // A new pod must be ready before an old one stops: a roll never leaves fewer than two.
      expect([where, replicas, strategy]).toEqual([
        where,
        2,
        { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      ]);

      const pdbs = budgetsOf(objects, ingest);
      expect([where, pdbs.length]).toEqual([where, 1]);
      const budget = spec<BudgetSpec>(pdbs[0]);
      expect(selectedPods(objects, budget.selector).map((p) => p.owner)).toEqual([ingest]);
      expect([where, budget.minAvailable, budget.maxUnavailable]).toEqual([where, 1, undefined]);

      // Preferred only: required anti-affinity would leave the surge pod pending on a two-node cluster.
      const affinity = podTemplate(ingest)!.spec.affinity as
        { podAntiAffinity?: PodAntiAffinity } | undefined;
      const antiAffinity = affinity?.podAntiAffinity;
      expect([where, antiAffinity?.requiredDuringSchedulingIgnoredDuringExecution]).toEqual([
        where,
        undefined,
      ]);
      const acrossNodes = (antiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).filter(
        ({ podAffinityTerm: term }) =>
          term.topologyKey === 'kubernetes.io/hostname' && selectsOnly(objects, term.labelSelector, ingest),
      );
      expect([where, acrossNodes.length]).toEqual([where, 1]);
    }
  });

  it('gives every PodDisruptionBudget one Deployment and room to evict one of its pods', () => {
    const pdbs = ofKind(objects, 'PodDisruptionBudget');
    expect(pdbs.length).toBeGreaterThanOrEqual(2 * SERVICES.length);
    for (const pdb of pdbs) {
      const budget = spec<BudgetSpec>(pdb);
      const owners = [...new Set(selectedPods(objects, budget.selector).map((p) => p.owner))];
      expect([pdb.metadata.name, owners.map((o) => o.kind)]).toEqual([pdb.metadata.name, ['Deployment']]);
      const { replicas } = spec<DeploymentSpec>(owners[0]);
      const numbers = [budget.minAvailable, budget.maxUnavailable].filter((n) => n !== undefined);
      // Percentages would need the rounding rules; the manifests use counts.
      expect([pdb.metadata.name, numbers.length, numbers.every(Number.isInteger)]).toEqual([
        pdb.metadata.name,
        1,
        true,
      ]);
      const evictable =
        budget.maxUnavailable !== undefined
          ? Math.min(Number(budget.maxUnavailable), replicas)
          : replicas - Number(budget.minAvailable);
      expect([pdb.metadata.name, evictable >= 1]).toEqual([pdb.metadata.name, true]);
    }
  });

  it('keeps each Deployment selecting its own pods and no other workload', () => {
    for (const deployment of ofKind(objects, 'Deployment')) {
      const selector = spec<{ selector: LabelSelector }>(deployment).selector;
      expect(selectedPods(objects, selector).map(({ owner }) => owner.metadata.name)).toEqual([
        deployment.metadata.name,
      ]);
    }
  });

  it('points every Service at the pods and named ports of one workload', () => {
    for (const svc of ofKind(objects, 'Service')) {
      const svcSpec = spec<{
        selector: Record<string, string>;
        ports: { port: number; targetPort: string }[];
      }>(svc);
      const targets = selectedPods(objects, { matchLabels: svcSpec.selector });
      expect([svc.metadata.name, targets.length]).toEqual([svc.metadata.name, 1]);
      const containerPorts = (targets[0].template.spec.containers as ContainerSpec[]).flatMap(
        (c) => c.ports ?? [],
      );
      for (const port of svcSpec.ports) {
        const target = containerPorts.find((p) => p.name === port.targetPort);
        expect(target?.containerPort).toBe(port.port);
      }
    }
  });

  it("sizes each app container's V8 heap to its memory limit: room for buffers, no unused limit", () => {
    for (const { deployment, container } of appContainers(objects)) {
      const where = `${objectKey(deployment)} ${container.name}`;
      const options = nodeOptions(objects, container) ?? '';
      const heapMiB = Number(/--max-old-space-size=(\d+)/.exec(options)?.[1] ?? NaN);
      const limitMiB = mebibytes(container.resources?.limits?.memory ?? '');
      // Sockets, buffers and code live outside the old space; a heap far below the limit GCs
      // (or dies) while the pod still has memory, as a big book needs most of it.
      const share = heapMiB / limitMiB;
      expect({ where, heapMiB, limitMiB, fits: share >= 0.6 && share <= 0.8 }).toEqual({
        where,
        heapMiB,
        limitMiB,
        fits: true,
      });
    }
  });

  it('serves each app on its PORT default with probes on the routes its health controller serves', () => {
    const config = byName(objects, 'ConfigMap', 'sports-data-config')!.data as Record<string, string>;
    expect(config.BASE_PATH).toBe(FIXTURES_BASE_PATH);
    const found = appContainers(objects);
    expect(new Set(found.map(({ facts }) => facts.name))).toEqual(new Set(SERVICES.map((s) => s.name)));
    for (const { deployment, container, facts } of found) {
      const where = deployment.metadata.name;
      expect([where, envValue(container, 'PORT')]).toEqual([where, String(facts.port)]);
      expect([where, container.ports]).toEqual([where, [{ name: 'http', containerPort: facts.port }]]);
      expect(facts.healthRoutes).toEqual(expect.arrayContaining([facts.liveness, facts.readiness]));
      expect([where, container.livenessProbe?.httpGet]).toEqual([
        where,
        { path: facts.liveness, port: 'http' },
      ]);
      expect([where, container.startupProbe?.httpGet]).toEqual([
        where,
        { path: facts.liveness, port: 'http' },
      ]);
      expect([where, container.readinessProbe?.httpGet]).toEqual([
        where,
        { path: facts.readiness, port: 'http' },
      ]);
      const annotations = podTemplate(deployment)!.metadata?.annotations ?? {};
      expect(METRICS_ROUTES).toHaveLength(1);
      expect(annotations).toMatchObject({
        'prometheus.io/port': String(facts.port),
        'prometheus.io/path': METRICS_ROUTES[0],
      });
    }
  });

  it('gives pods time for the preStop pause plus the 10 s application shutdown', () => {
    for (const { owner, template } of pods(objects).filter(({ owner }) => owner.kind === 'Deployment')) {
      const pause = (template.spec.containers as ContainerSpec[])
        .map((c) => c.lifecycle?.preStop?.exec?.command)
        .map((command) => (command?.[0] === 'sleep' ? Number(command[1]) : 0))
        .reduce((a, b) => Math.max(a, b), 0);
      const grace = template.spec.terminationGracePeriodSeconds as number;
      expect([owner.metadata.name, grace >= pause + APP_SHUTDOWN_SECONDS + 5]).toEqual([
        owner.metadata.name,
        true,
      ]);
    }
  });

  it('leaves migrations to the Job and reads DATABASE_URL from the Secret', () => {
    const config = byName(objects, 'ConfigMap', 'sports-data-config')!.data as Record<string, string>;
    expect(config.MIGRATIONS_RUN).toBe('false');
    for (const name of Object.keys(config)) expect(KNOWN_ENV).toContain(name);
    const job = ofKind(objects, 'Job');
    expect(job).toHaveLength(1);
    expect((podTemplate(job[0])!.spec.containers as ContainerSpec[]).map(programOf)).toEqual(['migrate']);

    for (const { owner, template } of pods(objects)) {
      for (const container of template.spec.containers as ContainerSpec[]) {
        if (programOf(container) === 'feed-sim') continue;
        const where = `${objectKey(owner)} ${container.name}`;
        expect([where, container.envFrom]).toEqual([
          where,
          [{ configMapRef: { name: 'sports-data-config' } }],
        ]);
        expect([where, envValue(container, 'MIGRATIONS_RUN')]).toEqual([where, undefined]);
        const database = container.env?.find((e) => e.name === 'DATABASE_URL');
        expect([where, database?.valueFrom?.secretKeyRef]).toEqual([where, SECRET]);
        for (const variable of container.env ?? []) expect(KNOWN_ENV).toContain(variable.name);
      }
    }
    const secret = byName(objects, 'Secret', SECRET.name);
    if (rendering === 'dev') expect(secret?.stringData).toHaveProperty(SECRET.key);
    else expect(secret).toBeUndefined();
  });

  it('has every NetworkPolicy select real pods, starting from deny-all', () => {
    const policies = ofKind(objects, 'NetworkPolicy');
    const denyAll = policies.find((p) => {
      const s = spec<{
        podSelector: LabelSelector;
        policyTypes: string[];
        ingress?: unknown;
        egress?: unknown;
      }>(p);
      return Object.keys(s.podSelector).length === 0 && !s.ingress && !s.egress && s.policyTypes.length === 2;
    });
    expect(denyAll).toBeDefined();
    for (const policy of policies) {
      const s = spec<{
        podSelector: LabelSelector;
        ingress?: { from?: { podSelector?: LabelSelector }[] }[];
        egress?: { to?: { podSelector?: LabelSelector }[] }[];
      }>(policy);
      expect([policy.metadata.name, selectedPods(objects, s.podSelector).length > 0]).toEqual([
        policy.metadata.name,
        true,
      ]);
      const peers = [
        ...(s.ingress ?? []).flatMap((r) => r.from ?? []),
        ...(s.egress ?? []).flatMap((r) => r.to ?? []),
      ];
      for (const peer of peers.filter((p) => p.podSelector)) {
        expect([policy.metadata.name, selectedPods(objects, peer.podSelector!).length > 0]).toEqual([
          policy.metadata.name,
          true,
        ]);
      }
    }
    for (const facts of SERVICES) {
      const apiPods = { 'app.kubernetes.io/name': facts.name, 'app.kubernetes.io/component': 'api' };
      const admitted = policies.some((p) => {
        const s = spec<{ podSelector: LabelSelector; ingress?: { ports?: { port: number }[] }[] }>(p);
        return (
          selects(s.podSelector, apiPods) &&
          (s.ingress ?? []).some((r) => (r.ports ?? []).some((port) => port.port === facts.port))
        );
      });
      expect([facts.name, admitted]).toEqual([facts.name, true]);
    }
  });

  it('routes the Ingress to the services and keeps WebSockets open', () => {
    const [ingress] = ofKind(objects, 'Ingress');
    const annotations = ingress.metadata.annotations ?? {};
    // Well above the 30 s WebSocket ping and 5 s heartbeat, so idle streams stay up.
    expect(Number(annotations['nginx.ingress.kubernetes.io/proxy-read-timeout'])).toBeGreaterThanOrEqual(
      3600,
    );
    expect(Number(annotations['nginx.ingress.kubernetes.io/proxy-send-timeout'])).toBeGreaterThanOrEqual(
      3600,
    );
    const paths = spec<{
      rules: {
        http: { paths: { path: string; backend: { service: { name: string; port: { name: string } } } }[] };
      }[];
    }>(ingress).rules.flatMap((rule) => rule.http.paths);
    expect(Object.fromEntries(paths.map((p) => [p.path, p.backend.service.name]))).toEqual({
      [DEFAULT_BOOK_PREFIX]: 'odds-passthrough',
      [FIXTURES_BASE_PATH]: 'fixtures-live',
    });
    for (const path of paths) {
      const svc = byName(objects, 'Service', path.backend.service.name)!;
      expect(spec<{ ports: { name: string }[] }>(svc).ports.map((p) => p.name)).toContain(
        path.backend.service.port.name,
      );
    }
  });
});
