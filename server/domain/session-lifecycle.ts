/**
 * Starting and stopping sessions and their players: start (check the request, place, allocate,
 * launch), stop (drain, shut down, end), join and leave.
 */
import { randomUUID } from 'node:crypto';
import type { ImageConfig, LocationConfig, NodeConfig, TagConfig } from '../config/fleet-types.js';
import { dockerImageRef, type Catalog } from './catalog.js';
import { parseDuration } from './duration.js';
import { refusedEnvNames } from './env-names.js';
import { refusedLabels, type LabelsRefusal } from './labels.js';
import { launchSpec } from './launch-spec.js';
import { NodeUsage } from './node-usage.js';
import { closedToStarts } from './placement.js';
import type { PreparedAllocation } from './ports/runtime.js';
import type { SessionRecord } from './ports/sessions.js';
import type { StartRateLimiter } from './ports/start-rate.js';
import type { SessionChange, SessionMachine } from './session-machine.js';
import type { SessionQueries } from './session-queries.js';
import { isFinal, justPlaced, type EndReason } from './session-states.js';
import type { SessionTimers } from './session-timers.js';
import { playerBytes, storedBytes, type StorageBudget } from './storage-budget.js';
import type { WarmServerRepository } from './ports/warm-servers.js';
import { warmAllocationOf, type WarmPools } from './warm-pools.js';

export interface StartRequest {
  id: string;
  location: string;
  image: string;
  /** The image's tag (`version` on the wire, Gameye's name); the image's default tag when left out. */
  tag?: string;
  env?: Record<string, string>;
  args?: string[];
  labels?: Record<string, string>;
  restart?: boolean;
  ttl?: string;
}

export type StartFailure =
  | { reason: 'reserved_env'; names: string[]; allowlist?: string[] }
  /** Label keys past MAP_KEY_MAX_LENGTH, or labels past LABELS_MAX_BYTES in all (labels.ts). */
  | ({ reason: 'refused_labels' } & LabelsRefusal)
  | { reason: 'not_found'; what: 'location' | 'image' | 'tag'; name: string }
  | { reason: 'quota_exceeded' }
  | { reason: 'storage_exceeded'; budgetBytes: number }
  | { reason: 'conflict' }
  | { reason: 'no_capacity'; why: 'full' | 'locked' }
  /** The account has as many live sessions as its cap allows. */
  | { reason: 'no_capacity'; why: 'account_session_limit'; max: number }
  | { reason: 'no_capacity'; why: 'rate_limited'; retryAfterMs: number };

export type StartResult = { ok: true; session: SessionRecord } | ({ ok: false } & StartFailure);
export type StopResult = { ok: true } | { ok: false; reason: 'not_found' | 'ended' };
export type PlayersResult =
  | { ok: true; players: string[] }
  | { ok: false; reason: 'not_found' | 'ended'; sessionId: string }
  | { ok: false; reason: 'full'; sessionId: string; max: number }
  /** The players would take the account past its storage budget (none joined). */
  | { ok: false; reason: 'storage_exceeded'; sessionId: string; budgetBytes: number };

/**
 * The most players a session holds through the API: the SDK's connected-player cap
 * (MAX_CONNECTED). Each change passes the whole list to the game server, so it must stay small.
 */
export const MAX_PLAYERS_PER_SESSION = 1024;

export interface LifecycleDependencies {
  catalog: Catalog;
  startRate: StartRateLimiter;
  /** The most live sessions the account may have at once; null or undefined: no cap. */
  maxSessions: (accountId: string) => Promise<number | null | undefined>;
  /** Labels, args and players per account; unbounded without. */
  storage: StorageBudget | undefined;
  /** Warm pools (server/domain/warm-refill.ts keeps them filled); without, every start is cold. */
  warm?: {
    pools: Pick<WarmPools, 'serving'>;
    servers: Pick<WarmServerRepository, 'claim' | 'countOn' | 'portsInUse'>;
    /** A warm server became a session: its pool needs another. */
    claimed(key: string): void;
    /**
     * With a store shared by several instances: the warm servers this one can hand a session to
     * (its runtime launched or adopted them); claims take only those. Undefined: any.
     */
    ownKeys?: () => readonly string[];
  };
}

export class SessionLifecycle {
  private readonly usage: NodeUsage;

  constructor(
    private readonly machine: SessionMachine,
    private readonly queries: SessionQueries,
    private readonly timers: SessionTimers,
    private readonly deps: LifecycleDependencies,
  ) {
    this.usage = new NodeUsage(machine.repository, deps.warm?.servers, machine.runtime);
  }

  /**
   * Starts and stops read before their transaction, which checks again what decides them: their
   * reads need not each wait for other callers' writes to be durable (a further fsync each), only
   * the answer does (SessionRepository.readsSettledAtEnd).
   */
  start(accountId: string, request: StartRequest): Promise<StartResult> {
    return this.machine.repository.readsSettledAtEnd(() => this.startChecked(accountId, request));
  }

  stop(accountId: string, id: string, reason: EndReason = 'stopped'): Promise<StopResult> {
    return this.machine.repository.readsSettledAtEnd(() => this.stopChecked(accountId, id, reason));
  }

  private async startChecked(accountId: string, request: StartRequest): Promise<StartResult> {
    const { catalog, storage } = this.deps;
    const { quota } = this.machine;
    // The request's own shape first: nothing to look up for it.
    const badLabels = refusedLabels(request.labels);
    if (badLabels) return { ok: false, reason: 'refused_labels', ...badLabels };
    const location = await catalog.location(accountId, request.location);
    if (!location) return { ok: false, reason: 'not_found', what: 'location', name: request.location };
    const image = await catalog.image(accountId, request.image);
    if (!image) return { ok: false, reason: 'not_found', what: 'image', name: request.image };
    const badEnv = refusedEnvNames(Object.keys(request.env ?? {}), image.allowedEnv);
    if (badEnv.length > 0) return { ok: false, reason: 'reserved_env', names: badEnv, allowlist: image.allowedEnv };
    const tagName = request.tag ?? image.defaultTag;
    const tag = await catalog.tag(accountId, image, tagName);
    if (!tag) return { ok: false, reason: 'not_found', what: 'tag', name: `${image.name}:${tagName}` };
    if (!(await quota.allowsStart(accountId))) return { ok: false, reason: 'quota_exceeded' };
    // Held from here until the session is stored or refused: racing starts each count the others'.
    const bytes = storedBytes(request.labels, request.args);
    const reservation = storage ? await storage.reserve(accountId, bytes) : undefined;
    if (storage && !reservation) return { ok: false, reason: 'storage_exceeded', budgetBytes: storage.budgetBytes };
    try {
      return await this.startWithin(accountId, request, location, image, tagName, tag, () => reservation?.stored(bytes));
    } finally {
      // Refused or failed before it was stored: its bytes go back (after stored(), nothing is left to).
      reservation?.cancel();
    }
  }

  /** The start past the checks that need no transaction; `stored()` once its session is in the store. */
  private async startWithin(
    accountId: string,
    request: StartRequest,
    location: LocationConfig,
    image: ImageConfig,
    tagName: string,
    tag: TagConfig,
    stored: () => void,
  ): Promise<StartResult> {
    const { catalog } = this.deps;
    const { repository, quota, runtime } = this.machine;
    const rate = await this.deps.startRate.take(accountId, location.id);
    if (!rate.ok) return { ok: false, reason: 'no_capacity', why: 'rate_limited', retryAfterMs: rate.retryAfterMs };

    const nodes = await this.usableNodes(location, image, tagName, tag);
    if (!nodes.ok) return { ok: false, reason: 'not_found', what: 'image', name: nodes.missing };

    const created = this.machine.now();
    const ttl = request.ttl === undefined ? undefined : parseDuration(request.ttl);
    const nodeKeys = nodes.nodes.flatMap((node) => [`node:${node.id}`, `host:${node.host}`]);
    // A warm pool serves it when its env and args are the pool's (labels are free); else it starts cold.
    const pool = await this.deps.warm?.pools.serving({ location: location.id, image: image.name, tag: tagName }, request.env, request.args);
    const record = (key: string, at: { nodeId: string; host: string; ports: SessionRecord['ports'] }): SessionRecord => ({
      id: request.id,
      accountId,
      key,
      image: image.name,
      tag: tagName,
      location: location.id,
      ...at,
      created,
      labels: request.labels ?? {},
      args: request.args ?? [],
      restart: request.restart ?? false,
      expires: ttl === undefined ? null : created + ttl,
      ...justPlaced(),
    });
    let handing: Promise<boolean> | undefined;
    let committed: SessionRecord | undefined;
    /** A claimed warm server's allocation, sent while the claim commits (applied once it has). */
    let prepared: PreparedAllocation | undefined;
    const placing = repository.transaction(async (): Promise<(StartResult & { ok: false }) | { ok: true; session: SessionRecord; changes: SessionChange[]; warm: boolean }> => {
      // Racing starts (in this process or another on the same database) place one at a time;
      // a warm claim needs only the account held (the claim itself is exact).
      await repository.lockForPlacement(accountId, pool ? [] : nodeKeys);
      if (await repository.exists(accountId, request.id)) return { ok: false, reason: 'conflict' };
      // Counted in the transaction that inserts, so racing starts cannot pass the cap together.
      const max = await this.deps.maxSessions(accountId);
      if (typeof max === 'number' && (await repository.launchSummary(accountId)).count >= max) {
        return { ok: false, reason: 'no_capacity', why: 'account_session_limit', max };
      }
      const open = nodes.nodes.filter((node) => !closedToStarts(node)).map((node) => node.id);
      const warm = pool && (await this.deps.warm!.servers.claim(pool, open, this.deps.warm!.ownKeys?.()));
      if (warm) {
        // Its game server runs already: the session is running from its launch.
        const session = { ...record(warm.key, { nodeId: warm.nodeId, host: warm.host, ports: warm.ports }), status: 'running' as const, runningSince: created };
        // Its game server's side wakes and reads the allocation while the claim is written and
        // committed; it applies it only once the claim has committed (handOff). The one runtime
        // call in this transaction: a socket write that waits for nothing, so the writer is held
        // no longer. A transaction run again (PostgreSQL: a conflict's victim) drops the one it
        // sent before.
        prepared?.abort();
        prepared = this.machine.runtime.prepareAllocation?.(session.key, warmAllocationOf(session));
        // One insert, running since its launch: its start is the claim.
        await repository.insert(session);
        const launched = { ...session, status: 'created' as const, runningSince: null };
        const changes = [
          { eventId: await repository.appendEvent(launched, null, created), session: launched, previous: null, at: created },
          { eventId: await repository.appendEvent(session, 'created', created), session, previous: 'created' as const, at: created },
        ];
        return { ok: true, session, changes, warm: true };
      }
      if (pool) await repository.lockForPlacement(accountId, nodeKeys);
      const placement = await this.usage.placeStart(nodes.nodes, tag.ports.length);
      if (!placement.ok) return { ok: false, reason: 'no_capacity', why: placement.reason };
      const { node } = placement;
      const session = record(randomUUID(), { nodeId: node.id, host: node.host, ports: tag.ports.map((p, i) => ({ ...p, host: placement.ports[i]! })) });
      await repository.insert(session);
      const eventId = await repository.appendEvent(session, null, created);
      return { ok: true, session, changes: [{ eventId, session, previous: null, at: created }], warm: false };
    }, (claimed) => {
      // The handoff once the claim has committed, while its fsync runs: a crash of this process
      // from here on leaves the claim in the store (see SessionRepository.transaction), so no game
      // server is ever told a session a restart would not find. The 201 still waits for the fsync.
      if (claimed.ok) committed = claimed.session;
      if (claimed.ok && claimed.warm) handing = this.handOff(claimed.session, prepared);
      else prepared?.abort();
    }, (claimed) => claimed.ok && claimed.warm);
    const placed = await placing.catch(async (error: unknown) => {
      if (committed) await this.abandon(committed, handing);
      else prepared?.abort();
      throw error;
    });
    if (!placed.ok) return placed;

    const session = placed.session;
    // Charged from launch: the account's quota deadline counts this session from now.
    stored();
    // Committed: from here the session is the caller's. A store read failing now (the database
    // gone just after the commit) answered "nothing of this request was done, retry" while the
    // session stayed `created`, never launched nor timed: reported instead, and recomputed by the
    // quota's next tick (Quota.recompute leaves a deadline due now when it fails).
    await this.machine.background('quota', quota.recompute(accountId));
    for (const change of placed.changes) this.machine.notify(change);
    this.timers.arm(session);
    if (handing) return this.handedOver(session, handing);
    try {
      await runtime.start(launchSpec(session, image, tag, catalog.limits(image), request.env ?? {}));
    } catch {
      // A stop may have begun while it was launching.
      await this.machine.exclusive(session.key, async () => {
        const current = (await repository.find(session.key))!;
        if (current.status === 'created') await this.machine.transition(session.key, 'dead', { endReason: 'start_failed' }, 'created');
        else if (current.status === 'shuttingdown') await this.machine.transition(session.key, 'exited', { endReason: current.pendingEndReason ?? 'stopped' }, 'shuttingdown');
      });
    }
    return { ok: true, session: (await repository.find(session.key))! };
  }

  /**
   * A start whose transaction committed but failed after (SQLite: its fsync) is answered with
   * that error, yet its session is in the store, holding its ports and a place under the
   * account's cap, and a warm one's game server has it: nothing would ever end it (no ttl timer,
   * no events; a retry of the id is a conflict). It ends `start_failed` now, and a warm game
   * server is stopped, as for a handoff that failed. With the store still failing, the record
   * stays for the restart's recovery; the game server is stopped regardless.
   */
  private async abandon(session: SessionRecord, handing: Promise<boolean> | undefined): Promise<void> {
    const { runtime } = this.machine;
    const warm = handing !== undefined;
    await handing;
    try {
      await this.machine.failStart(session.key, ['created', 'running']);
    } catch {
      // The store's failure is the start's own error, reported with it.
    }
    if (warm) {
      await runtime.stop(session.key).catch(() => {});
      this.deps.warm!.claimed(session.key);
    }
  }

  /** Tells a claimed warm server its session (sent ahead when `prepared`); resolves to whether its SDK has it now. */
  private handOff(session: SessionRecord, prepared: PreparedAllocation | undefined): Promise<boolean> {
    return (prepared ? prepared.allocate() : this.machine.runtime.allocate!(session.key, warmAllocationOf(session))).then(
      () => true,
      () => false,
    );
  }

  /**
   * A claimed warm server learns its session through its SDK before the start is answered; one
   * that cannot (its supervisor died just now) ends the session `start_failed`. The pool refills.
   */
  private async handedOver(session: SessionRecord, handing: Promise<boolean>): Promise<StartResult> {
    const { runtime, repository } = this.machine;
    try {
      if (await handing) return { ok: true, session };
      if (await this.machine.failStart(session.key, ['running'])) await runtime.stop(session.key).catch(() => {});
      return { ok: true, session: (await repository.find(session.key))! };
    } finally {
      // After the handoff: the refill's launch is no part of this start's answer.
      this.deps.warm!.claimed(session.key);
    }
  }

  /** Stop a live session: created goes straight to shuttingdown, others drain first. */
  private async stopChecked(accountId: string, id: string, reason: EndReason): Promise<StopResult> {
    const session = await this.queries.get(accountId, id);
    if (!session) return { ok: false, reason: 'not_found' };
    if (isFinal(session.status)) return { ok: false, reason: 'ended' };
    await this.machine.stop(session, reason);
    return { ok: true };
  }

  async join(accountId: string, sessionId: string, players: readonly string[]): Promise<PlayersResult> {
    const found = await this.queries.get(accountId, sessionId);
    if (!found) return { ok: false, reason: 'not_found', sessionId };
    const { repository } = this.machine;
    const { storage } = this.deps;
    // The players it would add as the session was read, held in the budget until the join is
    // stored or refused: racing joins (into any of the account's sessions) each count the others'.
    const joinedBefore = new Set(found.players);
    const asked = playerBytes(new Set(players.filter((player) => !joinedBefore.has(player))));
    const reservation = storage && asked > 0 ? await storage.reserve(accountId, asked) : undefined;
    if (storage && asked > 0 && !reservation) return { ok: false, reason: 'storage_exceeded', sessionId, budgetBytes: storage.budgetBytes };
    // The count and the insert in one transaction on the session's row: racing joins were each
    // checked against the players before any of them (32 at once put 8,192 in one session), and a
    // join could land after the session ended.
    const outcome = await repository.transaction(
      async (): Promise<{ refused: PlayersResult } | { added: readonly string[] }> => {
        await repository.lockForChange(found.key);
        const session = await repository.find(found.key);
        if (!session || isFinal(session.status)) return { refused: { ok: false, reason: 'ended', sessionId } };
        const joined = new Set(session.players);
        const newcomers = new Set(players.filter((player) => !joined.has(player)));
        if (joined.size + newcomers.size > MAX_PLAYERS_PER_SESSION) return { refused: { ok: false, reason: 'full', sessionId, max: MAX_PLAYERS_PER_SESSION } };
        // More are new than when it was read (players left meanwhile): what was not held is checked now.
        const beyond = playerBytes(newcomers) - asked;
        if (storage && beyond > 0 && !(await storage.allows(accountId, beyond))) {
          return { refused: { ok: false, reason: 'storage_exceeded', sessionId, budgetBytes: storage.budgetBytes } };
        }
        return { added: await repository.join(session.key, players, this.machine.now()) };
      },
      // Charged for the players the store really added, once they are: never for a run that rolled
      // back (PostgreSQL runs a transaction again after a deadlock) or whose commit failed.
      (done) => {
        if ('added' in done) {
          if (reservation) reservation.stored(playerBytes(done.added));
          else storage?.charge(accountId, playerBytes(done.added));
        }
      },
    ).finally(() => reservation?.cancel());
    return 'refused' in outcome ? outcome.refused : { ok: true, players: await this.playersOf(found.key) };
  }

  /** Players leave the given session, or, without one, whichever live session they are in. */
  async leave(accountId: string, sessionId: string | undefined, players: readonly string[]): Promise<PlayersResult> {
    const { repository } = this.machine;
    if (sessionId === undefined) {
      const where = await repository.liveSessionsOfPlayers(accountId, players);
      const sessions = [...new Set(where.values())];
      if (sessions.length === 0) return { ok: false, reason: 'not_found', sessionId: players.join(', ') };
      for (const key of sessions) this.released(accountId, await repository.leave(key, players.filter((p) => where.get(p) === key)));
      const now = await Promise.all(sessions.map((key) => this.playersOf(key)));
      // Gameye answers with one session's players; with several we answer the first's.
      return { ok: true, players: now[0]! };
    }
    const session = await this.queries.get(accountId, sessionId);
    if (!session) return { ok: false, reason: 'not_found', sessionId };
    if (isFinal(session.status)) return { ok: false, reason: 'ended', sessionId };
    this.released(accountId, await repository.leave(session.key, players));
    return { ok: true, players: await this.playersOf(session.key) };
  }

  /** Players that left: their records are gone, and so is what they took of the storage budget. */
  private released(accountId: string, left: readonly string[]): void {
    this.deps.storage?.release(accountId, playerBytes(left));
  }

  /** The session's players after a change, passed on to its game server (the SDK's allocation). */
  private async playersOf(key: string): Promise<string[]> {
    const { players } = (await this.machine.repository.find(key))!;
    this.machine.runtime.playersChanged?.(key, players);
    return players;
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
    const { runtime } = this.machine;
    const reachable = location.nodes.filter((node) => runtime.nodeAvailable?.(node.id) ?? true);
    const ref = dockerImageRef(image, tagName, tag);
    if (!ref || !runtime.hasImage) return { ok: true, nodes: reachable };
    const candidates = reachable.filter((node) => !closedToStarts(node));
    const held = await Promise.all(candidates.map((node) => runtime.hasImage!(node.id, ref)));
    const withImage = candidates.filter((_node, i) => held[i] === true);
    if (candidates.length > 0 && withImage.length === 0 && held.some((h) => h === false)) {
      return { ok: false, missing: `${image.name}:${tagName} (docker image ${ref} is not on the nodes of ${location.id})` };
    }
    // Locked nodes stay in the list so that placement still tells `locked` from `full`.
    return { ok: true, nodes: reachable.filter((node) => closedToStarts(node) || withImage.includes(node)) };
  }
}
