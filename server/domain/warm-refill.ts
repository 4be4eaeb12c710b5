/**
 * Keeps every warm pool at its size, in the background: launches warm servers where placement
 * finds room (counted against node capacity, on nodes neither locked nor draining), retires
 * those beyond the size, on closed or vanished nodes, or not ready by their image's start
 * deadline, and replaces those that die. Runs on a tick and whenever something changed (a claim,
 * a warm server's end, a size set in the panel). A pool whose warm servers keep failing backs off.
 */
import { randomUUID } from 'node:crypto';
import type { ImageConfig, LocationConfig, NodeConfig, SessionLimits, TagConfig } from '../config/fleet-types.js';
import type { Catalog } from './catalog.js';
import { warmLaunchSpec } from './launch-spec.js';
import { NodeUsage } from './node-usage.js';
import { closedToStarts, place } from './placement.js';
import type { Clock } from './ports/clock.js';
import type { FailureReporter } from './ports/failure-reporter.js';
import type { Runtime, RuntimeEvent } from './ports/runtime.js';
import type { PortsInUse, SessionRepository } from './ports/sessions.js';
import type { PoolKey, WarmServer, WarmServerRepository } from './ports/warm-servers.js';
import { poolName, samePool, warmLaunchOf, warmNodesOf, type PoolView, type WarmPools } from './warm-pools.js';

const TICK_MS = 1000;
/** Launches per pass: a large pool fills over several passes, so one pass never holds the rest up for long. */
const LAUNCHES_PER_PASS = 16;
const BACKOFF_MS = { first: 500, max: 30_000 };
/** A warm server that dies sooner after its launch counts as a failure of its pool (ready or not). */
const STEADY_MS = 10_000;
/**
 * Claims first: while starts are claiming, the refill waits (its placement and launches would
 * take the CPU and the store's batches from the claims), until claims have paused this long...
 */
const CLAIMS_QUIET_MS = 50;
/** ...or, under claims that never pause, this long after the first claim it owes a refill for. */
const CLAIMS_MAX_WAIT_MS = 500;
/** lockForPlacement's account for a refill: no account's row (none has this id), only the nodes' locks. */
const NO_ACCOUNT = '';

export interface RefillDependencies {
  pools: Pick<WarmPools, 'list'>;
  servers: WarmServerRepository;
  sessions: Pick<SessionRepository, 'transaction' | 'lockForPlacement' | 'liveSessionsOn' | 'portsInUse'>;
  runtime: Runtime;
  catalog: Pick<Catalog, 'allLocations' | 'allImages' | 'limits'>;
  now: Clock;
  reporter: FailureReporter;
}

export class WarmRefill {
  /** Warm servers this instance launched or adopted and that no start has claimed yet: their pool, and whether they got ready. */
  private readonly known = new Map<string, { pool: PoolKey; ready: boolean; launched: number }>();
  private readonly backoff = new Map<string, { failures: number; until: number }>();
  private readonly usage: NodeUsage;
  private timer: NodeJS.Timeout | undefined;
  /** The refill pass after claims, pending, and since when a refill is owed for them. */
  private soon: NodeJS.Timeout | undefined;
  private owedSince: number | undefined;
  private busy = false;
  private again = false;
  private closed = false;

  constructor(private readonly deps: RefillDependencies) {
    this.usage = new NodeUsage(deps.sessions, deps.servers, deps.runtime);
    deps.runtime.onEvent((event) => void this.onEvent(event));
  }

  /** Adopt the warm servers a previous run left (their supervisors outlive the service), then keep the pools filled. */
  async start(): Promise<void> {
    const pools = await this.deps.pools.list();
    for (const server of await this.deps.servers.all()) {
      this.known.set(server.key, { pool: server, ready: server.status === 'ready', launched: server.created });
      await this.deps.runtime.adopt({ sessionId: server.key, nodeId: server.nodeId, host: server.host, ports: server.ports, wasRunning: server.status === 'ready' });
      // Another instance's (several instances on one database): its own to hand over and retire.
      if (this.deps.runtime.supervises && !this.deps.runtime.supervises(server.key)) this.known.delete(server.key);
      // Launched with what the pool no longer runs (the fleet file changed between runs): retired
      // before any start can claim it, and the pass refills the pool.
      else if (server.launch !== this.launchOf(pools.find((pool) => samePool(pool, server)))) await this.retire(server);
    }
    // The tick leaves the pass owed to claims to its own timer.
    this.timer = setInterval(() => {
      if (!this.soon) this.poke();
    }, TICK_MS);
    this.timer.unref();
    this.poke();
  }

  /**
   * A start took this warm server: it is a session now, and its pool is one short. The refill
   * runs once claims pause (a launch does synchronous work: the socket tables, the sandbox's
   * directories, the spawn; and a refill's placement writes), once for a burst of claims, and
   * at the latest CLAIMS_MAX_WAIT_MS after the first of them.
   */
  claimed(key: string): void {
    const known = this.known.get(key);
    // A ready server taken by a start: its pool works.
    if (known?.ready) this.backoff.delete(poolName(known.pool));
    this.known.delete(key);
    const now = this.deps.now();
    this.owedSince ??= now;
    clearTimeout(this.soon);
    this.soon = setTimeout(() => {
      this.soon = undefined;
      this.owedSince = undefined;
      this.poke();
    }, Math.max(0, Math.min(CLAIMS_QUIET_MS, this.owedSince + CLAIMS_MAX_WAIT_MS - now)));
  }

  /** The warm servers this instance can hand a session to: those it launched or adopted. */
  handOverable(): string[] {
    return [...this.known.keys()];
  }

  /** Run a pass soon (one at a time; a poke during a pass runs another after it). */
  poke(): void {
    if (this.closed) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    void this.passes();
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    clearTimeout(this.soon);
  }

  private async passes(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.pass();
        this.deps.reporter.recovered('warm-pools');
      } catch (error) {
        this.deps.reporter.failed('warm-pools', error);
      }
      // Claims came meanwhile: the next pass waits for them to pause (their timer pokes).
    } while (this.again && !this.closed && !this.soon);
    this.busy = false;
  }

  private async pass(): Promise<void> {
    const [pools, servers, locations] = await Promise.all([this.deps.pools.list(), this.deps.servers.all(), this.deps.catalog.allLocations()]);
    const now = this.deps.now();
    const retiring = new Set(servers.filter((server) => this.unfit(server, pools, locations, now)));
    for (const pool of pools) {
      const kept = servers.filter((server) => samePool(server, pool) && !retiring.has(server));
      // Beyond the size: those still starting go first, then the newest.
      const surplus = [...kept].sort((a, b) => Number(a.status === 'ready') - Number(b.status === 'ready') || b.created - a.created);
      for (const server of surplus.slice(0, Math.max(0, kept.length - pool.warm))) retiring.add(server);
    }
    for (const server of retiring) {
      // Another instance's: it retires its own (every instance sees the same surplus).
      if (!this.known.has(server.key)) continue;
      if (this.missedDeadline(server, now)) this.failed(server);
      await this.retire(server);
    }
    let launches = 0;
    for (const pool of pools) {
      const location = locations.find((candidate) => candidate.id === pool.location);
      const short = pool.warm - servers.filter((server) => samePool(server, pool) && !retiring.has(server)).length;
      const waiting = this.backoff.get(poolName(pool));
      if (!location || short <= 0 || (waiting && waiting.until > now)) continue;
      const want = Math.min(short, LAUNCHES_PER_PASS - launches);
      const launched = await this.fill(pool, location, want);
      launches += launched;
      // Room for more, or a pass's worth launched: another pass follows.
      if (launched === want && want < short) this.again = true;
      if (launches >= LAUNCHES_PER_PASS) break;
    }
  }

  /** Retired: its pool is gone or smaller, its node closed or gone, or it missed its start deadline. */
  private unfit(server: WarmServer, pools: PoolView[], locations: LocationConfig[], now: number): boolean {
    const node = locations.find((location) => location.id === server.location)?.nodes.find((candidate) => candidate.id === server.nodeId);
    if (!pools.some((pool) => samePool(pool, server) && pool.warm > 0) || !node || !this.open(node)) return true;
    return this.missedDeadline(server, now);
  }

  private missedDeadline(server: WarmServer, now: number): boolean {
    return server.status === 'starting' && now - server.created > this.startSeconds(server) * 1000;
  }

  private open(node: NodeConfig): boolean {
    return !closedToStarts(node) && (this.deps.runtime.nodeAvailable?.(node.id) ?? true);
  }

  private startSeconds(server: PoolKey): number {
    const image = this.deps.catalog.allImages().find((candidate) => candidate.name === server.image);
    return image ? this.deps.catalog.limits(image).startSeconds : 60;
  }

  /** The pool's image, tag and limits as the fleet file says now; undefined when it names no such image or tag. */
  private runOf(pool: PoolKey): { image: ImageConfig; tag: TagConfig; limits: SessionLimits } | undefined {
    const image = this.deps.catalog.allImages().find((candidate) => candidate.name === pool.image);
    const tag = image && Object.hasOwn(image.tags, pool.tag) ? image.tags[pool.tag] : undefined;
    return image && tag ? { image, tag, limits: this.deps.catalog.limits(image) } : undefined;
  }

  /** What the pool's warm servers are launched with now (warmLaunchOf); undefined for no pool or no such tag. */
  private launchOf(pool: PoolView | undefined): string | undefined {
    const run = pool && this.runOf(pool);
    return pool && run ? warmLaunchOf(pool, run.tag, run.limits) : undefined;
  }

  private async retire(server: WarmServer): Promise<void> {
    // Gone already: a start claimed it (it is a session now) or another instance retired it.
    if (!(await this.deps.servers.remove(server.key))) return;
    this.known.delete(server.key);
    await this.deps.runtime.stop(server.key);
  }

  /**
   * Place up to `count` warm servers of the pool in one transaction (one commit, however many),
   * then launch them; resolves to how many were launched (fewer when the nodes are full).
   */
  private async fill(pool: PoolView, location: LocationConfig, count: number): Promise<number> {
    const run = this.runOf(pool);
    if (!run) return 0;
    const { image, tag, limits } = run;
    // The same for the whole batch: hashed once, outside the placement locks.
    const launch = warmLaunchOf(pool, tag, limits);
    const { runtime } = this.deps;
    const nodes = warmNodesOf(location, runtime).filter((node) => runtime.nodeAvailable?.(node.id) ?? true);
    const { sessions, servers } = this.deps;
    const placed = await sessions.transaction(async () => {
      await sessions.lockForPlacement(NO_ACCOUNT, nodes.flatMap((node) => [`node:${node.id}`, `host:${node.host}`]));
      // Counted again under the locks: instances sharing a database refill the same pools.
      const room = Math.min(count, pool.warm - (await servers.countOf(pool)));
      const usage = await this.usage.of(nodes);
      const slots = new Map(nodes.map((node) => [node.id, usage.slots(node.id)]));
      // What this batch places, beside what was in use before it.
      const placedPorts = new Map(nodes.map((node) => [node.id, new Set<number>()]));
      const ports = (node: NodeConfig): PortsInUse => ({ has: (port) => placedPorts.get(node.id)!.has(port) || usage.ports(node).has(port) });
      const batch: WarmServer[] = [];
      for (let i = 0; i < room; i++) {
        const placement = place(nodes, (id) => slots.get(id)!, ports, tag.ports.length);
        if (!placement.ok) break;
        const { node } = placement;
        slots.set(node.id, slots.get(node.id)! + 1);
        // Nodes sharing a host address share its ports.
        for (const other of nodes) if (other.host === node.host) for (const port of placement.ports) placedPorts.get(other.id)!.add(port);
        const server: WarmServer = {
          key: randomUUID(),
          location: pool.location,
          image: pool.image,
          tag: pool.tag,
          nodeId: node.id,
          host: node.host,
          ports: tag.ports.map((port, n) => ({ ...port, host: placement.ports[n]! })),
          status: 'starting',
          created: this.deps.now(),
          launch,
        };
        await servers.insert(server);
        batch.push(server);
      }
      return batch;
    });
    let launched = 0;
    for (const server of placed) {
      this.known.set(server.key, { pool: server, ready: false, launched: this.deps.now() });
      try {
        await this.deps.runtime.start(warmLaunchSpec(server, pool, image, tag, limits));
        launched++;
      } catch {
        this.known.delete(server.key);
        await servers.remove(server.key);
        this.failed(pool);
      }
    }
    return launched;
  }

  private async onEvent(event: RuntimeEvent): Promise<void> {
    const known = this.known.get(event.sessionId);
    if (!known) return;
    try {
      if (event.type === 'running') {
        if (await this.deps.servers.markReady(event.sessionId)) known.ready = true;
        return;
      }
      if (event.type !== 'exited' && event.type !== 'lost') return;
      this.known.delete(event.sessionId);
      // Still unclaimed: it died warm, and is replaced. One that did not last (ready or not)
      // counts against its pool, so an image that crashes soon after its start backs off.
      if (await this.deps.servers.remove(event.sessionId)) {
        if (this.deps.now() - known.launched < STEADY_MS) this.failed(known.pool);
        else this.backoff.delete(poolName(known.pool));
        this.poke();
      }
    } catch (error) {
      this.deps.reporter.failed('warm-pools', error);
    }
  }

  private failed(pool: PoolKey): void {
    const failures = (this.backoff.get(poolName(pool))?.failures ?? 0) + 1;
    const delay = Math.min(BACKOFF_MS.max, BACKOFF_MS.first * 2 ** (failures - 1));
    this.backoff.set(poolName(pool), { failures, until: this.deps.now() + delay });
  }
}
