import { type ServiceName, type ServiceProcess, startService } from '../../support/service-process';
import { hostAndPort, TcpProxy, withHostPort } from '../../support/tcp-proxy';
import { NATS_URL } from '../../support/test-env';
import { waitFor } from '../../support/wait-for';

/** One ingest process, reaching PostgreSQL and NATS through proxies the test can cut. */
export interface IngestNode {
  readonly name: string;
  readonly service: ServiceProcess;
  readonly database: TcpProxy;
  readonly nats: TcpProxy;
}

export interface IngestClusterOptions {
  readonly service: ServiceName;
  readonly readyPath: string;
  /** The lease key readiness reports the role under, e.g. `fixtures-live`. */
  readonly leaseKey: string;
  /** DATABASE_URL, NATS_SUBJECT_PREFIX and the app's upstream settings. */
  readonly env: Record<string, string>;
}

/**
 * Several `ROLE=ingest` processes of one app on one database and NATS, each
 * behind its own TCP proxies: a test kills one, stops it gracefully, or cuts
 * it from PostgreSQL or NATS while it stays alive.
 */
export class IngestCluster {
  readonly nodes: IngestNode[] = [];
  private started = 0;

  constructor(private readonly options: IngestClusterOptions) {}

  async add(): Promise<IngestNode> {
    const databaseTarget = hostAndPort(this.options.env.DATABASE_URL, 5432);
    const natsTarget = hostAndPort(NATS_URL, 4222);
    const database = new TcpProxy(databaseTarget.host, databaseTarget.port);
    const nats = new TcpProxy(natsTarget.host, natsTarget.port);
    await Promise.all([database.start(), nats.start()]);
    const service = await startService(this.options.service, this.options.readyPath, {
      ...this.options.env,
      ROLE: 'ingest',
      DATABASE_URL: withHostPort(this.options.env.DATABASE_URL, database.port),
      NATS_URL: `nats://127.0.0.1:${nats.port}`,
    });
    const node = { name: `ingest-${++this.started}`, service, database, nats };
    this.nodes.push(node);
    return node;
  }

  /** The node's role as its readiness answer states it; undefined when it does not answer. */
  async role(node: IngestNode): Promise<string | undefined> {
    try {
      const answer = await fetch(`${node.service.url}${this.options.readyPath}`);
      const body = (await answer.json()) as { ingest?: Record<string, string> };
      return body.ingest?.[this.options.leaseKey];
    } catch {
      return undefined;
    }
  }

  /** Waits until exactly one node (other than `except`) is active, and returns it. */
  async leader(timeoutMs: number, except?: IngestNode): Promise<IngestNode> {
    let found: IngestNode | undefined;
    await waitFor(
      async () => {
        const candidates = this.nodes.filter((node) => node !== except);
        const roles = await Promise.all(candidates.map((node) => this.role(node)));
        const active = candidates.filter((_, index) => roles[index] === 'active');
        found = active.length === 1 ? active[0] : undefined;
        return found !== undefined;
      },
      { timeoutMs, intervalMs: 50, what: 'exactly one active ingest' },
    );
    return found as IngestNode;
  }

  /** Ends a node for good (kill -9 or SIGTERM) and forgets it. */
  async end(node: IngestNode, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    node.service.child.kill(signal);
    await node.service.exited;
    this.nodes.splice(this.nodes.indexOf(node), 1);
    await Promise.all([node.database.cut(), node.nats.cut()]);
  }

  async stopAll(): Promise<void> {
    await Promise.all(
      this.nodes.splice(0).map(async (node) => {
        await node.service.stop();
        await Promise.all([node.database.cut(), node.nats.cut()]);
      }),
    );
  }
}

/** What `/metrics` of a node says `ingest_active` is for `feed`; undefined when absent. */
export async function ingestActive(node: IngestNode, feed: string): Promise<number | undefined> {
  const text = await (await fetch(`${node.service.url}/metrics`)).text();
  const line = text.split('\n').find((row) => row.startsWith(`ingest_active{feed="${feed}"}`));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

export interface GapSummary {
  readonly min: number;
  readonly median: number;
  readonly max: number;
  readonly gaps: readonly number[];
}

export function summarise(gaps: readonly number[]): GapSummary {
  const sorted = [...gaps].sort((a, b) => a - b);
  return {
    min: sorted[0],
    median: sorted[Math.floor(sorted.length / 2)],
    max: sorted[sorted.length - 1],
    gaps,
  };
}
