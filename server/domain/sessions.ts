/**
 * The session service, Agones-style in parts: session-lifecycle.ts (start, stop, players),
 * session-queries.ts (reads, locations, logs, artifacts), session-timers.ts (ttl, start
 * deadlines), session-watch.ts (runtime events through the reactions table, quota ends,
 * recovery), all on session-machine.ts (the one way a session changes state). This facade wires
 * them and is what the rest of the service calls. Knows the fleet, the store and the runtime only
 * through their ports.
 */
import type { Readable } from 'node:stream';
import type { Catalog } from './catalog.js';
import type { Clock } from './ports/clock.js';
import type { FailureReporter } from './ports/failure-reporter.js';
import type { Runtime } from './ports/runtime.js';
import type { ListPosition, SessionFilter, SessionRecord, SessionRepository } from './ports/sessions.js';
import type { StartRateLimiter } from './ports/start-rate.js';
import type { Quota } from './quota.js';
import { SessionLifecycle, type PlayersResult, type StartRequest, type StartResult, type StopResult } from './session-lifecycle.js';
import { SessionMachine, type SessionChange } from './session-machine.js';
import { SessionQueries, type AnySessionResult, type ArtifactRootResult, type LocationView, type TagExistsResult } from './session-queries.js';
import { isFinal, type EndReason } from './session-states.js';
import { SessionTimers } from './session-timers.js';
import { SessionWatch } from './session-watch.js';
import type { StorageBudget } from './storage-budget.js';
import type { PoolKey, WarmServerRepository } from './ports/warm-servers.js';
import { samePool, warmNodesOf, type PoolView, type WarmPools } from './warm-pools.js';
import { WarmRefill } from './warm-refill.js';

/** Up to this many sessions to adopt are read one by one, more in one read of every live session. */
const FEW_TO_ADOPT = 8;

export type { StartFailure, PlayersResult, StartRequest, StartResult, StopResult } from './session-lifecycle.js';
export type { SessionChange } from './session-machine.js';
export type { AnySessionResult, ArtifactRootResult, LocationView, TagExistsResult } from './session-queries.js';

export interface SessionsDependencies {
  repository: SessionRepository;
  runtime: Runtime;
  catalog: Catalog;
  quota: Quota;
  startRate: StartRateLimiter;
  /** The most live sessions the account may have at once; null or undefined: no cap. */
  maxSessions?: (accountId: string) => Promise<number | null | undefined>;
  now: Clock;
  /** Where failures of background work (runtime events, ttl, quota ends) are reported; they are retried. */
  reporter?: FailureReporter;
  /** Without a reporter: where those failures are logged. */
  onError?: (error: unknown) => void;
  /** Labels and args per account; unbounded without. */
  storage?: StorageBudget;
  /** Warm pools: their definitions and their game servers' records; without, every start is cold. */
  warm?: {
    pools: WarmPools;
    servers: WarmServerRepository;
    /** Other instances share the store: each claims only the warm servers its own runtime runs. */
    shared?: boolean;
  };
}

/** A warm pool and how full it is now. */
export type PoolState = PoolView & { ready: number; starting: number };
export type PoolSizeResult = { ok: true; pool: PoolState } | { ok: false; reason: 'not_found'; what: string } | { ok: false; reason: 'unsupported' };

export class Sessions {
  private readonly machine: SessionMachine;
  private readonly queries: SessionQueries;
  private readonly timers: SessionTimers;
  private readonly watch: SessionWatch;
  private readonly lifecycle: SessionLifecycle;
  private readonly refill: WarmRefill | undefined;
  private readonly warm: SessionsDependencies['warm'];

  constructor(private readonly deps: SessionsDependencies) {
    const onError = deps.onError ?? ((error) => console.error('session background work failed', error));
    const reporter = deps.reporter ?? { failed: (_component, error) => (onError(error), ''), recovered: () => {} };
    this.machine = new SessionMachine(deps.repository, deps.runtime, deps.quota, deps.now, reporter);
    this.queries = new SessionQueries(deps.repository, deps.runtime, deps.catalog, deps.warm);
    this.timers = new SessionTimers(this.machine, deps.catalog);
    this.watch = new SessionWatch(this.machine, this.timers);
    this.warm = deps.warm;
    const refill = deps.warm && new WarmRefill({ ...deps.warm, sessions: deps.repository, runtime: deps.runtime, catalog: deps.catalog, now: deps.now, reporter });
    this.refill = refill;
    this.lifecycle = new SessionLifecycle(this.machine, this.queries, this.timers, {
      catalog: deps.catalog,
      startRate: deps.startRate,
      maxSessions: deps.maxSessions ?? (async () => null),
      storage: deps.storage,
      warm: deps.warm && refill && {
        pools: deps.warm.pools,
        servers: deps.warm.servers,
        claimed: (key) => refill.claimed(key),
        ...(deps.warm.shared ? { ownKeys: () => refill.handOverable() } : {}),
      },
    });
  }

  /** Every warm pool with its size and how many of its servers are ready or starting (the admin panel). */
  async warmPools(): Promise<PoolState[]> {
    if (!this.warm) return [];
    const [pools, servers] = await Promise.all([this.warm.pools.list(), this.warm.servers.all()]);
    return pools.map((pool) => {
      const mine = servers.filter((server) => samePool(server, pool));
      return { ...pool, ready: mine.filter((server) => server.status === 'ready').length, starting: mine.filter((server) => server.status === 'starting').length };
    });
  }

  /** Size a warm pool (the admin panel, over the fleet file); the refill follows at once. */
  async sizeWarmPool(pool: PoolKey, warm: number): Promise<PoolSizeResult> {
    if (!this.warm) return { ok: false, reason: 'unsupported' };
    const image = this.deps.catalog.allImages().find((candidate) => candidate.name === pool.image);
    const location = (await this.deps.catalog.allLocations()).find((candidate) => candidate.id === pool.location);
    if (!location) return { ok: false, reason: 'not_found', what: `location ${pool.location}` };
    if (!image || !Object.hasOwn(image.tags, pool.tag)) return { ok: false, reason: 'not_found', what: `image ${pool.image}:${pool.tag}` };
    if (warmNodesOf(location, this.deps.runtime).length === 0) return { ok: false, reason: 'unsupported' };
    await this.warm.pools.setSize(pool, warm, this.machine.now());
    this.refill?.poke();
    return { ok: true, pool: (await this.warmPools()).find((candidate) => samePool(candidate, pool))! };
  }

  /** Called with every state change (events, webhooks); returns a function that unsubscribes. */
  onChange(listener: (change: SessionChange) => void): () => void {
    return this.machine.onChange(listener);
  }

  start(accountId: string, request: StartRequest): Promise<StartResult> {
    return this.lifecycle.start(accountId, request);
  }

  stop(accountId: string, id: string, reason?: EndReason): Promise<StopResult> {
    return this.lifecycle.stop(accountId, id, reason);
  }

  /** Any account's session by id, and by account where several accounts use the id (the admin panel). */
  findAny(id: string, accountId?: string): Promise<AnySessionResult> {
    return this.queries.findAny(id, accountId);
  }

  join(accountId: string, sessionId: string, players: readonly string[]): Promise<PlayersResult> {
    return this.lifecycle.join(accountId, sessionId, players);
  }

  leave(accountId: string, sessionId: string | undefined, players: readonly string[]): Promise<PlayersResult> {
    return this.lifecycle.leave(accountId, sessionId, players);
  }

  get(accountId: string, id: string): Promise<SessionRecord | undefined> {
    return this.queries.get(accountId, id);
  }

  list(filter: SessionFilter): Promise<SessionRecord[]> {
    return this.queries.list(filter);
  }

  /** The end of a scan window of the account's sessions (SessionRepository.positionAfter). */
  positionAfter(accountId: string, after: ListPosition | undefined, count: number): Promise<ListPosition | undefined> {
    return this.queries.positionAfter(accountId, after, count);
  }

  locations(accountId: string): Promise<LocationView[]> {
    return this.queries.locations(accountId);
  }

  fleetLocations(): Promise<LocationView[]> {
    return this.queries.fleetLocations();
  }

  availableLocations(accountId: string, imageName: string): Promise<{ id: string; ips: string[] }[] | undefined> {
    return this.queries.availableLocations(accountId, imageName);
  }

  tagExists(accountId: string, locationId: string, imageName: string, tag: string): Promise<TagExistsResult> {
    return this.queries.tagExists(accountId, locationId, imageName, tag);
  }

  logs(accountId: string, id: string, options: { follow: boolean; signal: AbortSignal }): Promise<Readable | undefined> {
    return this.queries.logs(accountId, id, options);
  }

  tailLogs(session: SessionRecord, maxBytes: number): Promise<string> {
    return this.queries.tailLogs(session, maxBytes);
  }

  artifactRoot(accountId: string, id: string): Promise<ArtifactRootResult> {
    return this.queries.artifactRoot(accountId, id);
  }

  orphaned(): Promise<SessionRecord[]> {
    return this.queries.orphaned();
  }

  /**
   * After a service restart: adopt live sessions (unless node leases do: `adopt: false`), then
   * warm servers, and keep the pools filled.
   */
  async recover(options?: { adopt?: boolean }): Promise<void> {
    await this.watch.recover(options);
    await this.refill?.start();
  }

  /** This instance now supervises the node (it holds the node's lease): adopt its live sessions it does not watch yet. */
  async superviseNode(nodeId: string): Promise<void> {
    const { repository, runtime } = this.machine;
    // Keys first: this runs every few seconds and after each start another instance hands over,
    // and whole records of every live session (10,000 of them) cost PostgreSQL a fifth of a second.
    const unwatched = (await repository.liveKeysOn(nodeId)).filter((key) => !runtime.supervises?.(key));
    if (unwatched.length === 0) return;
    // A few (handed over): each read alone; many (a takeover): all in one read.
    const sessions =
      unwatched.length <= FEW_TO_ADOPT
        ? (await Promise.all(unwatched.map((key) => repository.find(key)))).filter((session) => session !== undefined)
        : (await repository.live()).filter((session) => session.nodeId === nodeId);
    await this.watch.supervise(sessions);
  }

  /** Whether the session is live in the store (not ended, not unknown). */
  async isLive(key: string): Promise<boolean> {
    const session = await this.machine.repository.find(key);
    return session !== undefined && !isFinal(session.status);
  }

  /**
   * This instance no longer supervises the node: its runtime stops watching the node's sessions
   * (they keep running). From the runtime's own list, not the store: the lease is mostly lost
   * because the store cannot be reached, and a runtime left watching would act on sessions the
   * node's new holder has adopted.
   */
  async releaseNode(nodeId: string): Promise<void> {
    this.machine.runtime.releaseNode?.(nodeId);
  }

  async close(): Promise<void> {
    this.timers.close();
    this.watch.close();
    this.refill?.close();
    this.machine.quota.close();
  }
}
