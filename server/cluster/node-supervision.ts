/**
 * Each node's sessions are supervised by one instance at a time: its runtime watches them (their
 * events reach the store through that instance), and it alone stops their game servers.
 *
 * - Nodes that move (a runtime whose nodes any instance can reach: `nodesMove`): a lease per
 *   node (`node:<id>`). Its holder adopts the node's live sessions from the store; when the
 *   holder dies the lease expires and another instance takes the node over, adopting them in
 *   turn (and finishing the stops recorded meanwhile). An instance that launches a session on a
 *   node it does not hold hands it to the holder at once (released here, adopted there).
 * - Nodes that do not move (the process runtime: a game server's supervisor lives on its
 *   instance's host): a session is supervised by the instance that launched it, for good. While
 *   that instance is down its sessions keep running unsupervised, with their recorded state;
 *   stops recorded meanwhile are carried out when it starts again (recovery finishes them).
 *
 * Operations received by another instance go through the store first (the stop is recorded:
 * `draining`/`shuttingdown` with its reason), then a bus message tells the supervisor to act.
 * The store is the truth and the bus only the fast path: a message lost with a dying instance
 * is made good by the takeover (or the restart), which finishes every stop it finds recorded;
 * held nodes are also looked at again every few seconds and after the bus was away.
 */
import type { LaunchSpec, Runtime } from '../domain/ports/runtime.js';
import { TOPICS, type Claim, type Coordination } from './coordination.js';

/** How often a holder looks for sessions of its nodes it does not watch yet (handed over while the bus was away). */
const SWEEP_MS = 5000;
/**
 * Hand-overs within this long share one message per node (and so one sweep by its holder): a
 * burst of starts must not queue a message each on the small pool that also counts starts.
 */
const HAND_OVER_BATCH_MS = 20;

/** The domain's side: take over, or give up, the sessions of a node. */
export interface SupervisedSessions {
  superviseNode(nodeId: string): Promise<void>;
  releaseNode(nodeId: string): Promise<void>;
  /** Whether the session (by key) is live in the store. */
  isLive(key: string): Promise<boolean>;
}

type Message = { stop: string } | { node: string };

export class NodeSupervision {
  /** The runtime the domain uses: this instance's, with stops and hand-overs routed to the supervisor. */
  readonly runtime: Runtime;
  private readonly claims = new Map<string, Claim>();
  /** Sweeps under way per node, and whether another was asked for meanwhile. */
  private readonly sweeping = new Map<string, { again: boolean }>();
  private readonly unsubscribe: () => void;
  private readonly unresync: () => void;
  private sessions: SupervisedSessions | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Nodes with sessions launched here to hand to their holder in the next message. */
  private readonly handOvers = new Set<string>();
  private handOverTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly coordination: Coordination,
    private readonly local: Runtime,
    /** Every node of the fleet (leased when they move). */
    private readonly nodeIds: string[],
    private readonly onError: (error: unknown) => void,
  ) {
    this.runtime = routed(local, {
      stop: (sessionId) => this.publish({ stop: sessionId }),
      launched: async (spec) => {
        // A warm server stays with the instance that launched it (its refill watches it) until a start claims it.
        if (!local.nodesMove || spec.warm || this.holds(spec.nodeId)) return;
        // Still live when let go? Asked only of a start that launches later (its image pulled after the 201).
        local.release?.(spec.sessionId, async () => (await this.sessions?.isLive(spec.sessionId)) ?? true);
        this.handOver(spec.nodeId);
      },
    });
    this.unsubscribe = coordination.subscribe(TOPICS.supervision, (message) => this.receive(message));
    this.unresync = coordination.onResync(() => this.sweepAll());
  }

  /** Whether this instance supervises the node's sessions now (always, for nodes that do not move). */
  holds(nodeId: string): boolean {
    return !this.local.nodesMove || (this.claims.get(nodeId)?.held ?? false);
  }

  /** Whether recovery at start-up adopts every live session itself (nodes that do not move), or leaves them to the node leases. */
  get recoveryAdopts(): boolean {
    return !this.local.nodesMove;
  }

  /** Begin supervising: ask for the leases of the nodes (after recovery, with the domain built). */
  start(sessions: SupervisedSessions): void {
    this.sessions = sessions;
    if (!this.local.nodesMove) return;
    for (const nodeId of this.nodeIds) {
      this.claims.set(
        nodeId,
        this.coordination.lease(`node:${nodeId}`, {
          gained: () => this.sweep(nodeId),
          // Not at a shutdown (this.sessions gone): the runtime is closing anyway.
          lost: () => void this.sessions?.releaseNode(nodeId).catch(this.onError),
        }),
      );
    }
    this.timer = setInterval(() => this.sweepAll(), SWEEP_MS);
    this.timer.unref();
  }

  /** Give the nodes back for others to take over at once (a shutdown; the sessions keep running). */
  async close(): Promise<void> {
    this.sessions = undefined;
    clearInterval(this.timer);
    clearTimeout(this.handOverTimer);
    this.unsubscribe();
    this.unresync();
    const claims = [...this.claims.values()];
    this.claims.clear();
    for (const claim of claims) await claim.release();
  }

  private receive(raw: string): void {
    let message: Message;
    try {
      message = JSON.parse(raw) as Message;
    } catch {
      return;
    }
    if ('stop' in message) {
      if (this.local.supervises?.(message.stop)) this.local.stop(message.stop).catch(this.onError);
    } else if (this.holds(message.node)) {
      this.sweep(message.node);
    }
  }

  /** Tell the node's holder (soon, batched) that a session launched here is its to adopt. */
  private handOver(nodeId: string): void {
    this.handOvers.add(nodeId);
    this.handOverTimer ??= setTimeout(() => {
      this.handOverTimer = undefined;
      const nodes = [...this.handOvers];
      this.handOvers.clear();
      for (const node of nodes) void this.publish({ node });
    }, HAND_OVER_BATCH_MS);
  }

  private publish(message: Message): Promise<void> {
    return this.coordination.publish(TOPICS.supervision, JSON.stringify(message)).catch(this.onError);
  }

  private sweepAll(): void {
    for (const [nodeId, claim] of this.claims) if (claim.held) this.sweep(nodeId);
  }

  /** Adopt the node's sessions not watched yet; one sweep per node at a time (a request meanwhile runs once more after it). */
  private sweep(nodeId: string): void {
    const sessions = this.sessions;
    if (!sessions) return;
    const running = this.sweeping.get(nodeId);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false };
    this.sweeping.set(nodeId, state);
    void (async () => {
      do {
        state.again = false;
        if (!this.holds(nodeId)) break;
        await sessions.superviseNode(nodeId).catch(this.onError);
      } while (state.again);
      this.sweeping.delete(nodeId);
    })();
  }
}

/**
 * This instance's runtime, except that a stop of a session it does not supervise goes to the
 * supervisor over the bus, and a session launched on a node another instance holds is handed over.
 */
function routed(local: Runtime, route: { stop(sessionId: string): Promise<void>; launched(spec: LaunchSpec): Promise<void> }): Runtime {
  const stop = async (sessionId: string) => (local.supervises && !local.supervises(sessionId) ? route.stop(sessionId) : local.stop(sessionId));
  const start = async (spec: LaunchSpec) => {
    await local.start(spec);
    await route.launched(spec);
  };
  return new Proxy(local, {
    get(target, key) {
      if (key === 'stop') return stop;
      if (key === 'start') return start;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
