/**
 * What a node has in use, as placement counts it: its slots (live sessions and the warm servers
 * waiting on it) and its host address's ports (sessions', warm servers', and any other
 * process's that the runtime can see). Read inside the placing transaction.
 */
import type { NodeConfig } from '../config/fleet-types.js';
import { place, type Placement } from './placement.js';
import type { Runtime } from './ports/runtime.js';
import type { PortsInUse, SessionRepository } from './ports/sessions.js';
import type { WarmServerRepository } from './ports/warm-servers.js';

const NONE: ReadonlySet<number> = new Set();

export class NodeUsage {
  constructor(
    private readonly sessions: Pick<SessionRepository, 'liveSessionsOn' | 'portsInUse'>,
    private readonly warm: Pick<WarmServerRepository, 'countOn' | 'portsInUse'> | undefined,
    private readonly runtime: Pick<Runtime, 'heldPorts' | 'heldAmong'>,
    /** PROBE_BUDGET_MS unless a test gives its own (a loaded machine may pass 50 ms without a slow probe). */
    private readonly probeBudgetMs = PROBE_BUDGET_MS,
  ) {}

  async slotsTaken(nodeId: string): Promise<number> {
    // Warm servers first, as for ports.
    const warm = this.warm ? await this.warm.countOn(nodeId) : 0;
    return (await this.sessions.liveSessionsOn(nodeId)) + warm;
  }

  /** `withHeld: false` leaves other processes' ports out (a start probes the ports it picks instead: `placeStart`). */
  async portsTaken(node: NodeConfig, withHeld = true): Promise<PortsInUse> {
    // Warm servers first: a claim moves one into the sessions (the only way between the two), so a
    // claim committed between the reads is seen in the second (PostgreSQL reads each statement afresh).
    const warm = this.warm ? await this.warm.portsInUse(node.host) : NONE;
    const sessions = await this.sessions.portsInUse(node.host);
    const held = withHeld ? (this.runtime.heldPorts?.(node.id) ?? NONE) : NONE;
    // Asked about each port from the range's start, not copied (the sessions' may be a view of the
    // store's live copy); usually only the sessions hold any.
    if (warm.size === 0 && held.size === 0) return sessions;
    return { has: (port) => sessions.has(port) || warm.has(port) || held.has(port) };
  }

  /** Both, for each of the nodes: what `place()` reads. */
  async of(nodes: readonly NodeConfig[], withHeld = true): Promise<{ slots: (nodeId: string) => number; ports: (node: NodeConfig) => PortsInUse }> {
    const slots = new Map(await Promise.all(nodes.map(async (node) => [node.id, await this.slotsTaken(node.id)] as const)));
    const ports = new Map(await Promise.all(nodes.map(async (node) => [node.id, await this.portsTaken(node, withHeld)] as const)));
    return { slots: (nodeId) => slots.get(nodeId)!, ports: (node) => ports.get(node.id)! };
  }

  /**
   * Where one start goes. A runtime that can probe a few ports (`heldAmong`) is asked about the
   * ports placement picked rather than for every port anyone holds (reading the host's socket
   * tables walks the kernel's whole TCP hash, ~4 ms however few sockets there are): those held
   * are skipped and placement tried again; past a few tries, the whole list is read once.
   *
   * This runs inside the placing transaction, so the probe holds the store's writer: the store
   * (what sessions and warm servers hold) is the only truth among sessions and must be read and
   * written in one transaction, and a probe made before it would test ports that transaction
   * might not pick (another start may take them meanwhile), needing a retry across transactions.
   * The probe is a few binds on loopback or the node's address (well under a millisecond); its
   * time is bounded all the same (PROBE_BUDGET_MS): past it the socket tables are read instead.
   */
  async placeStart(nodes: readonly NodeConfig[], portCount: number): Promise<Placement> {
    const probe = this.runtime.heldAmong?.bind(this.runtime);
    const usage = await this.of(nodes, !probe);
    // Held ports found by probing, per host address (nodes sharing one share its ports).
    const held = new Map<string, Set<number>>();
    const skip = (host: string, found: Iterable<number>) => {
      const skipped = held.get(host) ?? new Set<number>();
      held.set(host, skipped);
      for (const port of found) skipped.add(port);
    };
    const ports = (node: NodeConfig): PortsInUse => {
      const skipped = held.get(node.host);
      return skipped ? { has: (port) => skipped.has(port) || usage.ports(node).has(port) } : usage.ports(node);
    };
    const deadline = performance.now() + this.probeBudgetMs;
    for (let tries = 1; ; tries++) {
      const placement = place(nodes, usage.slots, ports, portCount);
      if (!placement.ok || !probe) return placement;
      const found = await beforeDeadline(probe(placement.node.host, placement.ports), deadline);
      if (found === undefined) {
        // Out of time: every node's socket tables, read once, and placement without more probes.
        for (const node of nodes) skip(node.host, this.runtime.heldPorts?.(node.id) ?? NONE);
        return place(nodes, usage.slots, ports, portCount);
      }
      if (found.size === 0) return placement;
      skip(placement.node.host, tries < PROBES_BEFORE_READING ? found : [...found, ...(this.runtime.heldPorts?.(placement.node.id) ?? [])]);
    }
  }
}

/** Probes of picked ports before a start reads the whole list of held ones (a host full of other listeners). */
const PROBES_BEFORE_READING = 3;

/** How long one start's probes may hold the placing transaction in all. */
const PROBE_BUDGET_MS = 50;

/** `promise`'s value, or undefined once `deadline` (performance.now()) has passed. */
function beforeDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | undefined> {
  const left = deadline - performance.now();
  if (left <= 0) return Promise.resolve(undefined);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, left, undefined)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
