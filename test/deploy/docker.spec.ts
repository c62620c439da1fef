import { execFile } from 'node:child_process';
import { builtinModules } from 'node:module';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { parse } from 'yaml';
import {
  KNOWN_ENV,
  PROGRAMS,
  ROOT,
  SERVICES,
  buildOutputs,
  packageJson,
  readRepoFile,
  service,
} from './support/app-facts';
import { execForm, isIgnored, parseDockerfile, type Stage } from './support/dockerfile';

const dockerfile = parseDockerfile(readRepoFile('docker/Dockerfile'));
const dockerignore = readRepoFile('.dockerignore').split('\n');
const [buildStage, runtimeStage] = [dockerfile.stages[0], dockerfile.stages[dockerfile.stages.length - 1]];

const runs = (stage: Stage) => stage.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
const one = (stage: Stage, keyword: string) => {
  const found = stage.instructions.filter((i) => i.keyword === keyword);
  expect(found).toHaveLength(1);
  return found[0].args;
};

interface Copy {
  from?: string;
  sources: string[];
  destination: string;
}

/** COPY instructions with their destinations made absolute against the WORKDIR in force. */
function copies(stage: Stage): Copy[] {
  let workdir = '/';
  const result: Copy[] = [];
  for (const instruction of stage.instructions) {
    if (instruction.keyword === 'WORKDIR') workdir = posix.resolve(workdir, instruction.args);
    if (instruction.keyword !== 'COPY') continue;
    const words = instruction.args.split(/\s+/);
    const flags = words.filter((w) => w.startsWith('--'));
    const paths = words.filter((w) => !w.startsWith('--'));
    const destination = paths.pop()!;
    result.push({
      from: flags.find((f) => f.startsWith('--from='))?.slice('--from='.length),
      sources: paths,
      destination: posix.resolve(workdir, destination) + (destination.endsWith('/') ? '/' : ''),
    });
  }
  return result;
}

/** Where a file of the build context ends up in the runtime image. */
function imagePathOf(stage: Stage, contextPath: string): string | undefined {
  for (const copy of copies(stage).filter((c) => !c.from)) {
    if (!copy.sources.includes(contextPath)) continue;
    return copy.destination.endsWith('/')
      ? posix.join(copy.destination, posix.basename(contextPath))
      : copy.destination;
  }
  return undefined;
}

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { env, timeout: 20_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('Dockerfile', () => {
  it('builds in a stage with dev dependencies and ships a runtime stage with production ones only', () => {
    expect(dockerfile.stages.length).toBeGreaterThanOrEqual(2);
    expect(buildStage.name).toBe('build');
    const engines = JSON.parse(readRepoFile('package.json')) as { engines: { node: string } };
    const minimumMajor = Number(/(\d+)/.exec(engines.engines.node)![1]);
    for (const stage of dockerfile.stages) {
      const [, major] = /^node:(\d+)/.exec(stage.image) ?? [];
      expect(Number(major)).toBeGreaterThanOrEqual(minimumMajor);
    }

    const buildRuns = runs(buildStage);
    expect(buildRuns.some((r) => /^npm ci\b/.test(r) && !r.includes('--omit=dev'))).toBe(true);
    expect(buildRuns).toContain('npm run build');
    expect(packageJson().scripts.build).toBeDefined();

    expect(runs(runtimeStage).some((r) => /^npm ci\b.*--omit=dev/.test(r))).toBe(true);
    expect(runs(runtimeStage).some((r) => r.includes('npm run build'))).toBe(false);
    const fromBuild = copies(runtimeStage).filter((c) => c.from === buildStage.name);
    expect(fromBuild).toEqual([{ from: 'build', sources: ['/app/dist'], destination: '/app/dist' }]);
  });

  it('gives the build stage everything `npm run build` compiles', () => {
    const copied = copies(buildStage).flatMap((c) => c.sources);
    for (const file of [
      'package.json',
      'package-lock.json',
      'nest-cli.json',
      'tsconfig.json',
      'tsconfig.build.json',
    ]) {
      expect(copied).toContain(file);
    }
    const cli = JSON.parse(readRepoFile('nest-cli.json')) as {
      projects: Record<string, { root: string; sourceRoot: string; entryFile: string; type: string }>;
    };
    for (const [name, project] of Object.entries(cli.projects)) {
      expect([name, copied.some((source) => project.root.startsWith(`${source}/`))]).toEqual([name, true]);
    }
    // Each program the image runs is one of the projects the build script builds.
    for (const program of PROGRAMS) expect(packageJson().scripts.build).toContain(`nest build ${program}`);
  });

  it('copies only context files that exist and that .dockerignore lets through', () => {
    for (const copy of dockerfile.stages.flatMap(copies).filter((c) => !c.from)) {
      for (const source of copy.sources) {
        expect([source, existsSync(join(ROOT, source))]).toEqual([source, true]);
        expect([source, isIgnored(dockerignore, source)]).toEqual([source, false]);
      }
    }
    const cli = JSON.parse(readRepoFile('nest-cli.json')) as {
      projects: Record<string, { sourceRoot: string; entryFile: string }>;
    };
    for (const project of Object.values(cli.projects)) {
      const entry = `${project.sourceRoot}/${project.entryFile}.ts`;
      expect([entry, isIgnored(dockerignore, entry)]).toEqual([entry, false]);
    }
    for (const kept of [
      'node_modules',
      'libs/auth/node_modules/x',
      'dist/apps',
      '.git',
      '.env',
      '.data/pg',
    ]) {
      expect([kept, isIgnored(dockerignore, kept)]).toEqual([kept, true]);
    }
  });

  it('runs as a non-root user with a HEALTHCHECK and an entrypoint that ship in the image', () => {
    const user = one(runtimeStage, 'USER').split(':')[0];
    expect(['root', '0']).not.toContain(user);

    const entrypoint = execForm(one(runtimeStage, 'ENTRYPOINT'));
    expect(entrypoint).toEqual([imagePathOf(runtimeStage, 'docker/entrypoint.sh')]);
    expect(statSync(join(ROOT, 'docker/entrypoint.sh')).mode & 0o111).not.toBe(0);
    expect(PROGRAMS).toContain(execForm(one(runtimeStage, 'CMD'))[0]);

    const healthcheck = /\bCMD\s+(\[.*\])$/.exec(one(runtimeStage, 'HEALTHCHECK'))!;
    expect(execForm(healthcheck[1])).toEqual(['node', imagePathOf(runtimeStage, 'docker/healthcheck.js')]);
  });
});

/** Source files that end up in a bundle: everything under apps/ and libs/ but tests. */
function bundledSources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return bundledSources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Packages a file loads at run time (type-only imports vanish in the bundle). */
function runtimePackages(source: string): string[] {
  const specifiers = [
    ...source.matchAll(/^\s*import\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?'([^']+)'/gm),
    ...source.matchAll(/^\s*export\s+(?!type\s)[^'";]*?\sfrom\s+'([^']+)'/gm),
    ...source.matchAll(/\b(?:require|import)\(\s*'([^']+)'\s*\)/g),
  ].map((match) => match[1]);
  return specifiers
    .filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('@app/'))
    .map((specifier) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/'),
    );
}

describe('production dependencies', () => {
  it('include every package the bundles load, since the runtime stage installs only those', () => {
    const manifest = JSON.parse(readRepoFile('package.json')) as { dependencies: Record<string, string> };
    const builtins = new Set(builtinModules);
    const missing = ['apps', 'libs']
      .flatMap(bundledSources)
      .flatMap((file) => runtimePackages(readRepoFile(file)).map((name) => ({ file, name })))
      .filter(
        ({ name }) => !name.startsWith('node:') && !builtins.has(name) && !(name in manifest.dependencies),
      );
    expect(missing).toEqual([]);
  });

  it('recognise what a bundle would load', () => {
    const sample = [
      "import type { Response } from 'express';",
      "import { Controller } from '@nestjs/common';",
      "import 'reflect-metadata';",
      "export { Registry } from 'prom-client';",
      "const pg = require('pg');",
      "import { x } from './local';",
    ].join('\n');
    expect(runtimePackages(sample).sort()).toEqual([
      '@nestjs/common',
      'pg',
      'prom-client',
      'reflect-metadata',
    ]);
  });
});

describe('docker/entrypoint.sh', () => {
  let dir: string;
  beforeAll(() => {
    // A stand-in node that records what the entrypoint executed, and from where.
    dir = mkdtempSync(join(tmpdir(), 'entrypoint-'));
    writeFileSync(join(dir, 'node'), '#!/bin/sh\n{ pwd; printf "%s\\n" "$@"; } > "$CAPTURE"\n');
    chmodSync(join(dir, 'node'), 0o755);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const outputs = buildOutputs();

  it.each(PROGRAMS)(
    'starts %s from the bundle `npm run build` writes, passing arguments on',
    async (program) => {
      const capture = join(dir, `${program}.txt`);
      const result = await run('sh', [join(ROOT, 'docker/entrypoint.sh'), program, '--flag', 'two words'], {
        PATH: `${dir}:/usr/bin:/bin`,
        CAPTURE: capture,
      });
      expect(result).toMatchObject({ code: 0 });
      const [cwd, ...argv] = readFileSync(capture, 'utf8').trimEnd().split('\n');
      expect(cwd).toBe(ROOT);
      expect(argv).toEqual([outputs[program], '--flag', 'two words']);
    },
  );

  it('runs the same files as the npm scripts operators use', () => {
    const scripts = packageJson().scripts;
    expect(scripts.keys).toBe(`node ${outputs.keys}`);
    expect(scripts.migrate).toBe(`node ${outputs.migrate}`);
  });

  it('refuses an unknown program with a usage line and exit code 64', async () => {
    const result = await run('sh', [join(ROOT, 'docker/entrypoint.sh'), 'bogus'], {
      PATH: `${dir}:/usr/bin:/bin`,
    });
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(/usage: .*fixtures-live/);
  });
});

describe('docker/healthcheck.js', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const healthcheck = require('../../docker/healthcheck.js') as {
    programOf(argv: string[]): string | undefined;
  };
  let server: Server;
  let port: number;
  let status = 200;
  const requested: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      requested.push(request.url ?? '');
      response.writeHead(status).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    status = 200;
    requested.length = 0;
  });

  const check = (program: string, env: Record<string, string>) =>
    run(process.execPath, [join(ROOT, 'docker/healthcheck.js'), program], { ...env, PATH: process.env.PATH });

  it('recognises each program from the command line the entrypoint executes', () => {
    for (const [program, bundle] of Object.entries(buildOutputs())) {
      expect(healthcheck.programOf(['node', bundle, '--x'])).toBe(program);
    }
    expect(
      healthcheck.programOf(['/sbin/docker-init', '--', '/app/docker/entrypoint.sh', 'odds-passthrough']),
    ).toBe('odds-passthrough');
    expect(healthcheck.programOf(['/bin/sh'])).toBeUndefined();
  });

  it.each(SERVICES.map((s) => s.name))('asks %s its readiness route and needs a 200', async (name) => {
    const facts = service(name);
    expect(await check(name, { PORT: String(port) })).toMatchObject({ code: 0 });
    expect(requested).toEqual([facts.readiness]);
    status = 503;
    expect(await check(name, { PORT: String(port) })).toMatchObject({ code: 1 });
  });

  it('accepts any answer from the simulator but not silence', async () => {
    status = 404;
    expect(await check('feed-sim', { SIM_PORT: String(port) })).toMatchObject({ code: 0 });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await check('feed-sim', { SIM_PORT: String(closedPort) })).toMatchObject({ code: 1 });
  });

  it('has nothing to check for one-shot programs', async () => {
    expect(await check('migrate', { PORT: String(port) })).toMatchObject({ code: 0 });
    expect(requested).toEqual([]);
  });
});

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  restart?: string;
  environment?: Record<string, string>;
  ports?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  profiles?: string[];
}

describe('docker/compose.yml', () => {
  const compose = parse(readRepoFile('docker/compose.yml'), { merge: true }) as {
    services: Record<string, ComposeService>;
  };
  const services = compose.services;
  const platform = Object.entries(services).filter(([, s]) => s.image?.startsWith('sports-data-platform'));
  const oneShot = (s: ComposeService) => s.restart === 'no';

  it('runs PostgreSQL, NATS with JetStream, migrations, the simulator and both apps as ingest and api', () => {
    expect(services.postgres.image).toMatch(/^postgres:/);
    expect(services.nats.image).toMatch(/^nats:/);
    expect(services.nats.command).toEqual(expect.arrayContaining(['--jetstream']));
    const roles = platform.map(([name, s]) => [name, s.command?.[0], s.environment?.ROLE]);
    expect(roles).toEqual(
      expect.arrayContaining([
        ['migrate', 'migrate', undefined],
        ['feed-sim', 'feed-sim', undefined],
        ['fixtures-ingest-a', 'fixtures-live', 'ingest'],
        ['fixtures-ingest-b', 'fixtures-live', 'ingest'],
        ['fixtures-api', 'fixtures-live', 'api'],
        ['odds-ingest-a', 'odds-passthrough', 'ingest'],
        ['odds-ingest-b', 'odds-passthrough', 'ingest'],
        ['odds-api', 'odds-passthrough', 'api'],
      ]),
    );
  });

  it('runs two ingests per app, alike in everything, so one is a standby for the other', () => {
    for (const facts of SERVICES) {
      const ingests = platform.filter(
        ([, s]) => s.command?.[0] === facts.name && s.environment?.ROLE === 'ingest',
      );
      expect([facts.name, ingests.length]).toEqual([facts.name, 2]);
      const [[, first], [, second]] = ingests;
      expect(second).toEqual(first);
      // Both publish nothing on the host, so the second cannot clash with the first over a port.
      expect([facts.name, first.ports]).toEqual([facts.name, undefined]);
    }
  });

  it('builds the image from docker/Dockerfile and names only programs the entrypoint knows', () => {
    for (const [name, s] of platform) {
      expect([name, s.build]).toEqual([name, { context: '..', dockerfile: 'docker/Dockerfile' }]);
      expect(PROGRAMS).toContain(s.command?.[0]);
    }
  });

  it('health-checks every long-running service, and each checks its own program', () => {
    for (const [name, s] of Object.entries(services).filter(([, s]) => !oneShot(s))) {
      expect([name, Array.isArray(s.healthcheck?.test)]).toEqual([name, true]);
      if (s.image?.startsWith('sports-data-platform')) {
        expect([name, s.healthcheck!.test]).toEqual([
          name,
          ['CMD', 'node', '/app/docker/healthcheck.js', s.command![0]],
        ]);
      }
    }
  });

  it('orders start-up with depends_on conditions that can be met', () => {
    for (const [name, s] of Object.entries(services)) {
      for (const [target, { condition }] of Object.entries(s.depends_on ?? {})) {
        const dependency = services[target];
        expect([name, target, dependency !== undefined]).toEqual([name, target, true]);
        if (condition === 'service_healthy')
          expect([name, target, !!dependency.healthcheck]).toEqual([name, target, true]);
        else
          expect([name, target, condition, oneShot(dependency)]).toEqual([
            name,
            target,
            'service_completed_successfully',
            true,
          ]);
      }
    }
    for (const [name, s] of platform.filter(
      ([, s]) => s.environment?.DATABASE_URL && s.command?.[0] !== 'migrate',
    )) {
      expect([name, s.environment?.MIGRATIONS_RUN, s.depends_on?.migrate?.condition]).toEqual([
        name,
        'false',
        'service_completed_successfully',
      ]);
    }
  });

  it('configures the apps with variables they read, their PORT defaults and the compose services', () => {
    const pg = services.postgres.environment!;
    for (const [name, s] of platform) {
      const env = s.environment ?? {};
      for (const variable of Object.keys(env)) expect([name, KNOWN_ENV.has(variable)]).toEqual([name, true]);
      if (env.DATABASE_URL) {
        expect(env.DATABASE_URL).toBe(
          `postgres://${pg.POSTGRES_USER}:${pg.POSTGRES_PASSWORD}@postgres:5432/${pg.POSTGRES_DB}`,
        );
        expect(env.NATS_URL).toBe('nats://nats:4222');
      }
      const program = s.command![0];
      if (SERVICES.some((facts) => facts.name === program)) {
        expect([name, env.PORT]).toEqual([name, String(service(program).port)]);
        if (env.ROLE === 'api') expect(s.ports).toEqual([`${env.PORT}:${env.PORT}`]);
        if (env.ROLE === 'ingest') {
          // The simulator serves the live-score provider at its root and the sportsbook under /book.
          const sim = `http://feed-sim:${services['feed-sim'].environment!.SIM_PORT}`;
          const upstream = env.FIXTURES_UPSTREAM_URL ?? env.BOOK_UPSTREAM_URL;
          const expected = env.FIXTURES_UPSTREAM_URL === undefined ? `${sim}/book` : sim;
          expect([name, upstream]).toEqual([name, expected]);
        }
      }
    }
  });
});
