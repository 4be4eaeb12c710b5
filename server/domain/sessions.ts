/**
 * Sessions: start (place, allocate, launch), watch (runtime events drive the state machine),
 * stop (drain, shut down, end), ttl, players, and recovery after a service restart. Knows the
 * fleet configuration, the store and the runtime only through their interfaces; every state
 * change goes through transition(), which enforces the table in session-states.ts.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ImageConfig, LocationConfig, NodeConfig, TagConfig } from '../fleet.js';
import { defaultLimits, dockerImageRef, resolveCommand } from '../fleet.js';
import type { FailureReporter } from '../health.js';
import type { Runtime, RuntimeEvent } from '../runtime/runtime.js';
import type { Catalog } from './catalog.js';
import { parseDuration } from './duration.js';
import { refusedEnvNames } from './env-names.js';
import { OrderedRetry } from './ordered-retry.js';
import { StartDeadlines } from './start-deadlines.js';
import type { Quota } from './quota.js';
import { place } from './placement.js';
import type { PortAllocation, SessionChanges, SessionFilter, SessionRecord, SessionRepository } from './session-record.js';
import { storedBytes, type StorageBudget } from './storage-budget.js';
import { canTransition, isFinal, type EndReason, type SessionStatus } from './session-states.js';

export interface StartRequest {
  id: string;
  location: string;
  image: string;
  version?: string;
  env?: Record<string, string>;
  args?: string[];
  labels?: Record<string, string>;
  restart?: boolean;
  ttl?: string;
}

export type TagExistsResult = { ok: true; exists: boolean } | { ok: false; what: 'location' | 'image'; name: string };

export type StartFailure =
  | { reason: 'reserved_env'; names: string[]; allowlist?: string[] }
  | { reason: 'not_found'; what: 'location' | 'image' | 'tag'; name: string }
  | { reason: 'quota_exceeded' }
  | { reason: 'storage_exceeded'; budgetBytes: number }
  | { reason: 'conflict' }
  | { reason: 'no_capacity'; why: 'full' | 'locked' }
  /** The account has as many live sessions as its cap allows. */
  | { reason: 'no_capacity'; why: 'account_session_limit'; max: number }
  | { reason: 'no_capacity'; why: 'rate_limited'; retryAfterMs: number };

/** Limits how fast an account starts sessions in a location. */
export interface StartRateLimiter {
  take(accountId: string, location: string): Promise<{ ok: true } | { ok: false; retryAfterMs: number }>;
}

export interface SessionsDependencies {
  repository: SessionRepository;
  runtime: Runtime;
  catalog: Catalog;
  quota: Quota;
  startRate: StartRateLimiter;
  /** The most live sessions the account may have at once; null or undefined: no cap. */
  maxSessions?: (accountId: string) => number | null | undefined;
  now: () => number;
  /** Where failures of background work (runtime events, ttl, quota ends) are reported; they are retried. */
  reporter?: FailureReporter;
  /** Without a reporter: where those failures are logged. */
  onError?: (error: unknown) => void;
  /** Labels and args per account; unbounded without. */
  storage?: StorageBudget;
}

export type StartResult = { ok: true; session: SessionRecord } | ({ ok: false } & StartFailure);
export type AnySessionResult =
  | { ok: true; session: SessionRecord }
  /** `ambiguous`: several accounts have a session with this id (`accounts`). */
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'ambiguous'; accounts: string[] };
export type StopResult = { ok: true } | { ok: false; reason: 'not_found' | 'ended' };
export type PlayersResult =
  | { ok: true; players: string[] }
  | { ok: false; reason: 'not_found' | 'ended'; sessionId: string };

export type ArtifactRootResult =
  /** `viewRoot`: the absolute path at which the session saw `root` (absolute artifact paths are read against it). */
  | { ok: true; root: string; viewRoot: string }
  | { ok: false; reason: 'not_found' | 'live' | 'none' };

export interface LocationView {
  id: string;
  status: 'available' | 'full' | 'locked';
  ips: string[];
  capacity: { total: number; used: number; free: number };
  nodes: { id: string; host: string; locked: boolean; capacity: number; used: number }[];
}

export interface SessionChange {
  /** The event's id in the session event log. */
  eventId: number;
  session: SessionRecord;
  previous: SessionStatus | null;
  at: number;
}

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** setTimeout takes at most 2^31-1 ms; longer ttls re-arm until due. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** How soon background work that failed (a full disk) is tried again. */
const RETRY_MS = 1000;

export class Sessions {
  private readonly ttlTimers = new Map<string, NodeJS.Timeout>();
  private readonly listeners: ((change: SessionChange) => void)[] = [];
  private readonly startDeadlines: StartDeadlines;

  private readonly repository: SessionRepository;
  private readonly runtime: Runtime;
  private readonly catalog: Catalog;
  private readonly quota: Quota;
  private readonly startRate: StartRateLimiter;
  private readonly maxSessions: (accountId: string) => number | null | undefined;
  private readonly now: () => number;
  private readonly reporter: FailureReporter;
  private readonly runtimeEvents: OrderedRetry<RuntimeEvent>;
  private readonly storage: StorageBudget | undefined;

  constructor(deps: SessionsDependencies) {
    const onError = deps.onError ?? ((error) => console.error('session background work failed', error));
    this.reporter = deps.reporter ?? { failed: (_component, error) => (onError(error), ''), recovered: () => {} };
    ({ repository: this.repository, runtime: this.runtime, catalog: this.catalog, quota: this.quota } = deps);
    ({ startRate: this.startRate, now: this.now, storage: this.storage } = deps);
    this.maxSessions = deps.maxSessions ?? (() => null);
    this.startDeadlines = new StartDeadlines(this.now, (id) => this.background('start-deadline', this.missedStart(id)));
    // An event that cannot be recorded (a full disk) is retried, in order with its session's next ones.
    this.runtimeEvents = new OrderedRetry({
      key: (event) => event.sessionId,
      run: (event) => this.onRuntimeEvent(event),
      reporter: this.reporter,
      component: 'runtime-events',
      retryMs: RETRY_MS,
    });
    this.runtime.onEvent((event) => this.runtimeEvents.push(event));
    this.quota.whenExhausted((accountId) => this.background('quota', this.endAllOf(accountId, 'quota_exhausted')));
  }

  /** Called with every state change (events, webhooks); returns a function that unsubscribes. */
  onChange(listener: (change: SessionChange) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const index = this.listeners.indexOf(listener);
      if (index !== -1) this.listeners.splice(index, 1);
    };
  }

  async start(accountId: string, request: StartRequest): Promise<StartResult> {
    const location = this.catalog.location(accountId, request.location);
    if (!location) return { ok: false, reason: 'not_found', what: 'location', name: request.location };
    const image = this.catalog.image(accountId, request.image);
    if (!image) return { ok: false, reason: 'not_found', what: 'image', name: request.image };
    const badEnv = refusedEnvNames(Object.keys(request.env ?? {}), image.allowedEnv);
    if (badEnv.length > 0) return { ok: false, reason: 'reserved_env', names: badEnv, allowlist: image.allowedEnv };
    const tagName = request.version ?? image.defaultTag;
    const tag = this.catalog.tag(accountId, image, tagName);
    if (!tag) return { ok: false, reason: 'not_found', what: 'tag', name: `${image.name}:${tagName}` };
    if (!this.quota.allowsStart(accountId)) return { ok: false, reason: 'quota_exceeded' };
    const bytes = storedBytes(request.labels, request.args);
    if (this.storage && !this.storage.allows(accountId, bytes)) return { ok: false, reason: 'storage_exceeded', budgetBytes: this.storage.budgetBytes };
    const rate = await this.startRate.take(accountId, location.id);
    if (!rate.ok) return { ok: false, reason: 'no_capacity', why: 'rate_limited', retryAfterMs: rate.retryAfterMs };

    const nodes = await this.usableNodes(location, image, tagName, tag);
    if (!nodes.ok) return { ok: false, reason: 'not_found', what: 'image', name: nodes.missing };

    const created = this.now();
    const ttl = request.ttl === undefined ? undefined : parseDuration(request.ttl);
    const placed = this.repository.transaction((): (StartResult & { ok: false }) | { ok: true; session: SessionRecord; eventId: number } => {
      if (this.repository.exists(accountId, request.id)) return { ok: false, reason: 'conflict' };
      // Counted in the transaction that inserts, so racing starts cannot pass the cap together.
      const max = this.maxSessions(accountId);
      if (typeof max === 'number' && this.repository.launchedAt(accountId).length >= max) {
        return { ok: false, reason: 'no_capacity', why: 'account_session_limit', max };
      }
      const placement = place(
        nodes.nodes,
        (nodeId) => this.repository.liveSessionsOn(nodeId),
        (node) => this.portsTaken(node),
        tag.ports.length,
      );
      if (!placement.ok) return { ok: false, reason: 'no_capacity', why: placement.reason };
      const session: SessionRecord = {
        id: request.id,
        accountId,
        key: randomUUID(),
        image: image.name,
        tag: tagName,
        location: location.id,
        nodeId: placement.node.id,
        host: placement.node.host,
        created,
        ports: tag.ports.map((p, i) => ({ ...p, host: placement.ports[i]! })),
        status: 'created',
        labels: request.labels ?? {},
        args: request.args ?? [],
        restart: request.restart ?? false,
        expires: ttl === undefined ? null : created + ttl,
        pendingEndReason: null,
        ended: null,
        exitCode: null,
        endReason: null,
        runningSince: null,
        players: [],
      };
      this.repository.insert(session);
      const eventId = this.repository.appendEvent(session, null, created);
      return { ok: true, session, eventId };
    });
    if (!placed.ok) return placed;

    const session = placed.session;
    // Charged from launch: the account's quota deadline counts this session from now.
    this.quota.recompute(accountId);
    this.storage?.charge(accountId, bytes);
    this.notify({ eventId: placed.eventId, session, previous: null, at: created });
    this.armTtl(session);
    this.startDeadlines.arm(session.key, created + this.catalog.limits(image).startSeconds * 1000);
    try {
      await this.runtime.start(this.launchSpec(session, image, tag, request.env ?? {}));
    } catch {
      // A stop may have begun while it was launching.
      const current = this.repository.find(session.key)!;
      if (current.status === 'created') this.transition(session.key, 'dead', { endReason: 'start_failed' });
      else if (current.status === 'shuttingdown') this.transition(session.key, 'exited', { endReason: current.pendingEndReason ?? 'stopped' });
    }
    return { ok: true, session: this.repository.find(session.key)! };
  }

  /**
   * The location's nodes a start may use: not those whose engine is unreachable (when none is
   * left, placement answers as for locked nodes), nor those whose engine lacks the tag's image;
   * an image on none of the reachable nodes is unknown in this location (404).
   */
  private async usableNodes(
    location: LocationConfig,
    image: ImageConfig,
    tagName: string,
    tag: TagConfig,
  ): Promise<{ ok: true; nodes: NodeConfig[] } | { ok: false; missing: string }> {
    const reachable = location.nodes.filter((node) => this.runtime.nodeAvailable?.(node.id) ?? true);
    const ref = dockerImageRef(image, tagName, tag);
    if (!ref || !this.runtime.hasImage) return { ok: true, nodes: reachable };
    const candidates = reachable.filter((node) => !node.locked);
    const held = await Promise.all(candidates.map((node) => this.runtime.hasImage!(node.id, ref)));
    const withImage = candidates.filter((_node, i) => held[i] === true);
    if (candidates.length > 0 && withImage.length === 0 && held.some((h) => h === false)) {
      return { ok: false, missing: `${image.name}:${tagName} (docker image ${ref} is not on the nodes of ${location.id})` };
    }
    // Locked nodes stay in the list so that placement still tells `locked` from `full`.
    return { ok: true, nodes: reachable.filter((node) => node.locked || withImage.includes(node)) };
  }

  /** Ports of the node's host address that sessions have, and those some other process holds there. */
  private portsTaken(node: NodeConfig): ReadonlySet<number> {
    const sessions = this.repository.portsInUse(node.host);
    const held = this.runtime.heldPorts?.(node.id);
    return held ? new Set([...sessions, ...held]) : sessions;
  }

  get(accountId: string, id: string): SessionRecord | undefined {
    return this.repository.findOwned(accountId, id);
  }

  list(filter: SessionFilter): SessionRecord[] {
    return this.repository.list(filter);
  }

  /** Stop a live session: created goes straight to shuttingdown, others drain first. */
  async stop(accountId: string, id: string, reason: EndReason = 'stopped'): Promise<StopResult> {
    const session = this.get(accountId, id);
    if (!session) return { ok: false, reason: 'not_found' };
    if (isFinal(session.status)) return { ok: false, reason: 'ended' };
    try {
      await this.end(session, reason);
    } catch (error) {
      // Recorded in part (a full disk): the stop is under way, so it is finished in the background.
      if (this.repository.find(session.key)?.pendingEndReason) void this.persist('stop', () => this.endIfLive(session.key, reason));
      throw error;
    }
    return { ok: true };
  }

  join(accountId: string, sessionId: string, players: readonly string[]): PlayersResult {
    const session = this.get(accountId, sessionId);
    if (!session) return { ok: false, reason: 'not_found', sessionId };
    if (isFinal(session.status)) return { ok: false, reason: 'ended', sessionId };
    this.repository.join(session.key, players, this.now());
    return { ok: true, players: this.repository.find(session.key)!.players };
  }

  /** Players leave the given session, or, without one, whichever live session they are in. */
  leave(accountId: string, sessionId: string | undefined, players: readonly string[]): PlayersResult {
    if (sessionId === undefined) {
      const where = this.repository.liveSessionsOfPlayers(accountId, players);
      const sessions = [...new Set(where.values())];
      if (sessions.length === 0) return { ok: false, reason: 'not_found', sessionId: players.join(', ') };
      for (const key of sessions) this.repository.leave(key, players.filter((p) => where.get(p) === key));
      // Gameye answers with one session's players; with several we answer the first's.
      return { ok: true, players: this.repository.find(sessions[0]!)!.players };
    }
    const session = this.get(accountId, sessionId);
    if (!session) return { ok: false, reason: 'not_found', sessionId };
    if (isFinal(session.status)) return { ok: false, reason: 'ended', sessionId };
    this.repository.leave(session.key, players);
    return { ok: true, players: this.repository.find(session.key)!.players };
  }

  locations(accountId: string): LocationView[] {
    return this.locationViews(this.catalog.locations(accountId));
  }

  /** Every location of the fleet, whoever may use it (the admin panel). */
  fleetLocations(): LocationView[] {
    return this.locationViews(this.catalog.allLocations());
  }

  /**
   * Any account's session (the admin panel): ids are unique per account only, so without the
   * account an id that several accounts use is ambiguous.
   */
  findAny(id: string, accountId?: string): AnySessionResult {
    if (accountId !== undefined) {
      const session = this.get(accountId, id);
      return session ? { ok: true, session } : { ok: false, reason: 'not_found' };
    }
    const found = this.repository.findEverywhere(id);
    if (found.length === 1) return { ok: true, session: found[0]! };
    return found.length === 0 ? { ok: false, reason: 'not_found' } : { ok: false, reason: 'ambiguous', accounts: found.map((s) => s.accountId) };
  }

  private locationViews(locations: ReturnType<Catalog['allLocations']>): LocationView[] {
    const used = this.repository.liveCountsByNode();
    return locations
      .map((location) => {
        const nodes = location.nodes.map((n) => ({
          id: n.id,
          host: n.host,
          locked: n.locked,
          capacity: n.capacity,
          used: used.get(n.id) ?? 0,
        }));
        // A node whose engine is unreachable takes no sessions: no free capacity, and unavailable like a locked one.
        const closed = new Set(location.nodes.filter((n) => n.locked || !(this.runtime.nodeAvailable?.(n.id) ?? true)).map((n) => n.id));
        const total = nodes.reduce((sum, n) => sum + n.capacity, 0);
        const inUse = nodes.reduce((sum, n) => sum + n.used, 0);
        const free = nodes.filter((n) => !closed.has(n.id)).reduce((sum, n) => sum + Math.max(0, n.capacity - n.used), 0);
        const status = nodes.every((n) => closed.has(n.id)) ? 'locked' : free === 0 ? 'full' : 'available';
        return { id: location.id, status, ips: location.ips, capacity: { total, used: inUse, free }, nodes };
      });
  }

  /** Locations where the image can start now, or undefined when the image is unknown to the account. */
  availableLocations(accountId: string, imageName: string): { id: string; ips: string[] }[] | undefined {
    if (!this.catalog.image(accountId, imageName)) return undefined;
    return this.locations(accountId)
      .filter((l) => l.status === 'available')
      .map((l) => ({ id: l.id, ips: l.ips }));
  }

  /** Whether `image:tag` is startable in the location (Gameye's tag-exists); which is unknown otherwise. */
  tagExists(accountId: string, locationId: string, imageName: string, tag: string): TagExistsResult {
    if (!this.catalog.location(accountId, locationId)) return { ok: false, what: 'location', name: locationId };
    const image = this.catalog.image(accountId, imageName);
    if (!image) return { ok: false, what: 'image', name: imageName };
    return { ok: true, exists: this.catalog.tag(accountId, image, tag) !== undefined };
  }

  /** The game server's output; with `follow`, streamed until the session ends. */
  logs(accountId: string, id: string, options: { follow: boolean; signal: AbortSignal }): Readable | undefined {
    const session = this.get(accountId, id);
    if (!session) return undefined;
    // An ended session's output is complete: nothing to follow.
    return this.runtime.logs(session.key, { ...options, follow: options.follow && !isFinal(session.status) }) ?? Readable.from([]);
  }

  /** The last `maxBytes` of a session's output (the admin panel: any account's, found with findAny). */
  async tailLogs(session: SessionRecord, maxBytes: number): Promise<string> {
    // Seek where the runtime can (bytes from the end); engines that count lines get a line count.
    const stream = this.runtime.logs(session.key, { follow: false, signal: AbortSignal.timeout(5000), lastBytes: maxBytes, tailLines: Math.ceil(maxBytes / 2) });
    if (!stream) return '';
    let kept = Buffer.alloc(0);
    for await (const chunk of stream) {
      kept = Buffer.concat([kept, Buffer.from(chunk as Buffer)]);
      if (kept.length > 2 * maxBytes) kept = kept.subarray(kept.length - maxBytes);
    }
    return kept.subarray(Math.max(0, kept.length - maxBytes)).toString('utf8');
  }

  /** The directory of an ended session's files. */
  artifactRoot(accountId: string, id: string): ArtifactRootResult {
    const session = this.get(accountId, id);
    if (!session) return { ok: false, reason: 'not_found' };
    if (!isFinal(session.status)) return { ok: false, reason: 'live' };
    const root = this.runtime.artifactRoot(session.key);
    return root ? { ok: true, root, viewRoot: this.runtime.artifactViewRoot?.(session.key) ?? root } : { ok: false, reason: 'none' };
  }

  /** After a service restart: adopt every live session, finish interrupted stops, re-arm ttls. */
  async recover(): Promise<void> {
    for (const session of this.repository.live()) {
      await this.runtime.adopt({
        sessionId: session.key,
        nodeId: session.nodeId,
        host: session.host,
        ports: session.ports,
        wasRunning: session.status === 'running',
      });
      const current = this.repository.find(session.key)!;
      if (isFinal(current.status)) continue;
      if (current.status === 'draining' || current.status === 'shuttingdown') await this.persist('recovery', () => this.endIfLive(session.key, 'stopped'));
      this.armTtl(current);
      if (current.status === 'created') this.startDeadlines.arm(current.key, current.created + this.startSecondsOf(current) * 1000);
    }
    this.quota.recomputeAll();
  }

  /** Live sessions on node ids the fleet no longer has (renamed or removed): their ports stay reserved by host. */
  orphaned(): SessionRecord[] {
    const nodes = new Set(this.catalog.allLocations().flatMap((location) => location.nodes.map((node) => node.id)));
    return this.repository.live().filter((session) => !nodes.has(session.nodeId));
  }

  async close(): Promise<void> {
    for (const timer of this.ttlTimers.values()) clearTimeout(timer);
    this.ttlTimers.clear();
    this.startDeadlines.close();
    this.runtimeEvents.close();
    this.quota.close();
  }

  /** Not running by its image's start deadline: the session is dead (start_failed) and its game server stopped. */
  private async missedStart(key: string): Promise<void> {
    if (this.repository.find(key)?.status !== 'created') return;
    this.transition(key, 'dead', { endReason: 'start_failed' });
    await this.runtime.stop(key);
  }

  private startSecondsOf(session: SessionRecord): number {
    const image = this.catalog.image(session.accountId, session.image);
    return (image ? this.catalog.limits(image) : defaultLimits).startSeconds;
  }

  /** End every live session of the account (quota exhaustion). */
  private async endAllOf(accountId: string, reason: EndReason): Promise<void> {
    const live = this.repository.list({ accountId, all: false, labels: {}, notLabels: {} });
    await Promise.all(live.map((session) => this.end(session, reason)));
  }

  /** End a session unless it has ended meanwhile; a stop under way keeps its reason. */
  private async endIfLive(key: string, reason: EndReason): Promise<void> {
    const current = this.repository.find(key);
    if (current && !isFinal(current.status)) await this.end(current, current.pendingEndReason ?? reason);
  }

  private async end(session: SessionRecord, reason: EndReason): Promise<void> {
    if (session.status === 'server_unreachable') {
      this.transition(session.key, 'dead', { endReason: reason });
      this.runtime.forget?.(session.key);
      return;
    }
    // Only a running game server drains; one starting or restarting is shut down at once.
    if (session.status === 'running') this.transition(session.key, 'draining', { pendingEndReason: reason });
    if (session.status !== 'shuttingdown') this.transition(session.key, 'shuttingdown', { pendingEndReason: reason });
    await this.runtime.stop(session.key);
  }

  private onRuntimeEvent(event: RuntimeEvent): void {
    const session = this.repository.find(event.sessionId);
    if (!session || isFinal(session.status)) return;
    switch (event.type) {
      case 'running':
        if (['created', 'restarting', 'server_unreachable'].includes(session.status)) {
          this.transition(session.key, 'running', { runningSince: session.runningSince ?? event.at });
          // Back from an unreachable node with a stop pending: finish the stop.
          if (session.status === 'server_unreachable' && session.pendingEndReason) {
            this.background('runtime-events', this.end(this.repository.find(session.key)!, session.pendingEndReason));
          }
        }
        return;
      case 'unreachable':
        if (session.status !== 'server_unreachable') this.transition(session.key, 'server_unreachable');
        return;
      case 'restarting':
        if (session.status === 'running') this.transition(session.key, 'restarting');
        return;
      case 'exited':
        return this.onExited(session, event);
      case 'lost':
        if (session.status !== 'server_unreachable') this.transition(session.key, 'server_unreachable');
        this.transition(session.key, 'dead', { endReason: 'node_lost', ended: event.at });
        return;
    }
  }

  private onExited(session: SessionRecord, event: Extract<RuntimeEvent, { type: 'exited' }>): void {
    const ended = { ended: event.at, exitCode: event.exitCode };
    switch (session.status) {
      case 'draining':
        this.transition(session.key, 'shuttingdown');
      // falls through: the stop completed
      case 'shuttingdown':
        this.transition(session.key, 'exited', { ...ended, endReason: session.pendingEndReason ?? 'stopped' });
        return;
      case 'created':
        this.transition(session.key, 'dead', { ...ended, endReason: 'start_failed' });
        return;
      case 'server_unreachable':
        // Ended while its node was unreachable: a stop that was under way counts as that end.
        if (session.pendingEndReason) {
          this.transition(session.key, 'dead', { ...ended, endReason: session.pendingEndReason });
          return;
        }
        this.transition(session.key, 'dead', { ...ended, endReason: event.exitCode === 0 ? 'exited' : 'crashed' });
        return;
      default:
        this.transition(session.key, 'dead', { ...ended, endReason: event.exitCode === 0 ? 'exited' : 'crashed' });
    }
  }

  /**
   * The one way a session changes state; an illegal transition is a bug and throws. The new
   * state, its event and (at the end) the quota charge are written in one transaction.
   */
  private transition(key: string, to: SessionStatus, changes: SessionChanges = {}): void {
    const at = this.now();
    const { session, previous, eventId } = this.repository.transaction(() => {
      const before = this.repository.find(key)!;
      if (!canTransition(before.status, to)) {
        throw new Error(`illegal session transition ${before.status} -> ${to} (${before.accountId}/${before.id})`);
      }
      const final = isFinal(to);
      const ended = changes.ended ?? at;
      this.repository.update(key, { ...changes, status: to, ...(final ? { ended, pendingEndReason: null } : {}) });
      const after = this.repository.find(key)!;
      if (final) this.quota.chargeEnded(after.accountId, after.created, ended);
      return { session: after, previous: before.status, eventId: this.repository.appendEvent(after, before.status, at) };
    });
    if (to !== 'created') this.startDeadlines.clear(key);
    if (isFinal(to)) {
      clearTimeout(this.ttlTimers.get(key));
      this.ttlTimers.delete(key);
    }
    if (isFinal(to)) this.quota.recompute(session.accountId);
    this.notify({ eventId, session, previous, at });
  }

  /** Work started by a timer or an event, with no caller to answer: a failure is reported, never fatal. */
  private background(component: string, work: Promise<unknown>): Promise<boolean> {
    return work.then(
      () => (this.reporter.recovered(component), true),
      (error: unknown) => (this.reporter.failed(component, error), false),
    );
  }

  /** Background work retried until it succeeds; resolves after the first attempt. */
  private async persist(component: string, work: () => Promise<unknown>): Promise<void> {
    if (await this.background(component, work())) return;
    setTimeout(() => void this.persist(component, work), RETRY_MS).unref();
  }

  private notify(change: SessionChange) {
    for (const listener of this.listeners) listener(change);
  }

  private armTtl(session: SessionRecord, retryMs?: number): void {
    if (session.expires === null) return;
    const delay = retryMs ?? Math.max(0, session.expires - this.now());
    const wait = Math.min(delay, MAX_TIMER_MS);
    const timer = setTimeout(async () => {
      const current = this.repository.find(session.key);
      if (!current || isFinal(current.status)) return;
      // The timer measured the wait on a monotonic clock: only a wait cut short by the timer limit
      // goes on. A wall clock that says "not yet" was stepped back; it must not stretch the ttl.
      if (wait === MAX_TIMER_MS && current.expires! > this.now()) return this.armTtl(current);
      const stopped = await this.background('ttl', this.stop(current.accountId, current.id, 'ttl_expired'));
      // Not recorded (a full disk): try again shortly; the expiry has not moved.
      if (!stopped) this.armTtl(current, RETRY_MS);
    }, wait);
    timer.unref();
    this.ttlTimers.set(session.key, timer);
  }

  private launchSpec(session: SessionRecord, image: ImageConfig, tag: TagConfig, callerEnv: Record<string, string>) {
    const base = {
      sessionId: session.key,
      publicId: session.id,
      accountId: session.accountId,
      location: session.location,
      nodeId: session.nodeId,
      host: session.host,
      ports: session.ports,
      restart: session.restart,
      limits: this.catalog.limits(image),
    };
    const identity = sessionEnv(session.id, session.host, session.ports);
    const ref = dockerImageRef(image, session.tag, tag);
    if (tag.docker && ref) {
      // A container: the image's entrypoint runs; its PATH comes from the image.
      return {
        ...base,
        container: { ...tag.docker, image: ref, ...(tag.command ? { command: tag.command } : {}) },
        file: '',
        args: session.args,
        env: { ...callerEnv, ...identity },
      };
    }
    const { file, args } = resolveCommand(tag.command ?? []);
    return {
      ...base,
      file,
      args: [...args, ...session.args],
      // The caller's env first, so it cannot override what identifies the session.
      env: { ...callerEnv, PATH: DEFAULT_PATH, ...identity },
    };
  }
}

export function sessionEnv(id: string, host: string, ports: readonly PortAllocation[]): Record<string, string> {
  const env: Record<string, string> = { SESSION_ID: id, SESSION_HOST: host };
  for (const port of ports) env[`PORT_${port.name.toUpperCase()}`] = String(port.host);
  return env;
}
