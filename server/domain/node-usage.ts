/**
 * What a node has in use, as placement counts it: its slots (live sessions and the warm servers
 * waiting on it) and its host address's ports (sessions', warm servers', and any other
 * process's that the runtime can see). Read inside the placing transaction.
 */
import type { NodeConfig } from '../config/fleet-types.js';
import type { Runtime } from './ports/runtime.js';
import type { PortsInUse, SessionRepository } from './ports/sessions.js';
import type { WarmServerRepository } from './ports/warm-servers.js';

const NONE: ReadonlySet<number> = new Set();

export class NodeUsage {
  constructor(
    private readonly sessions: Pick<SessionRepository, 'liveSessionsOn' | 'portsInUse'>,
    private readonly warm: Pick<WarmServerRepository, 'countOn' | 'portsInUse'> | undefined,
    private readonly runtime: Pick<Runtime, 'heldPorts'>,
  ) {}

  async slotsTaken(nodeId: string): Promise<number> {
    // Warm servers first, as for ports.
    const warm = this.warm ? await this.warm.countOn(nodeId) : 0;
    return (await this.sessions.liveSessionsOn(nodeId)) + warm;
  }

  async portsTaken(node: NodeConfig): Promise<PortsInUse> {
    // Warm servers first: a claim moves one into the sessions (the only way between the two), so a
    // claim committed between the reads is seen in the second (PostgreSQL reads each statement afresh).
    const warm = this.warm ? await this.warm.portsInUse(node.host) : NONE;
    const sessions = await this.sessions.portsInUse(node.host);
    const held = this.runtime.heldPorts?.(node.id) ?? NONE;
    // Asked about each port from the range's start, not copied (the sessions' may be a view of the
    // store's live copy); usually only the sessions hold any.
    if (warm.size === 0 && held.size === 0) return sessions;
    return { has: (port) => sessions.has(port) || warm.has(port) || held.has(port) };
  }

  /** Both, for each of the nodes: what `place()` reads. */
  async of(nodes: readonly NodeConfig[]): Promise<{ slots: (nodeId: string) => number; ports: (node: NodeConfig) => PortsInUse }> {
    const slots = new Map(await Promise.all(nodes.map(async (node) => [node.id, await this.slotsTaken(node.id)] as const)));
    const ports = new Map(await Promise.all(nodes.map(async (node) => [node.id, await this.portsTaken(node)] as const)));
    return { slots: (nodeId) => slots.get(nodeId)!, ports: (node) => ports.get(node.id)! };
  }
}
