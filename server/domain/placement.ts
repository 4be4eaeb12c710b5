/**
 * Placement: which node of a location takes a new session, and which of its ports. Pure
 * functions over a snapshot of usage; the store calls them inside the transaction that
 * records the result, so concurrent starts can never over-allocate.
 */
import type { NodeConfig } from '../config/fleet-types.js';
import type { PortsInUse } from './ports/sessions.js';

export type Placement =
  | { ok: true; node: NodeConfig; ports: number[] }
  | { ok: false; reason: 'locked' | 'full' };

/** Locked (maintenance) or draining: the node takes no new sessions. */
export function closedToStarts(node: Pick<NodeConfig, 'locked' | 'draining'>): boolean {
  return node.locked || (node.draining ?? false);
}

/** The unlocked node with the most free slots and enough free ports, or why there is none. */
export function place(
  nodes: readonly NodeConfig[],
  liveSessions: (nodeId: string) => number,
  /** Ports in use on the node's host address (unique per host, across node ids and renames). */
  usedPorts: (node: NodeConfig) => PortsInUse,
  portCount: number,
): Placement {
  const unlocked = nodes.filter((node) => !closedToStarts(node));
  if (unlocked.length === 0) return { ok: false, reason: 'locked' };
  const candidates = unlocked
    .map((node) => ({ node, free: node.capacity - liveSessions(node.id) }))
    .filter((c) => c.free > 0)
    .sort((a, b) => b.free - a.free);
  for (const { node } of candidates) {
    const ports = freePorts(node.ports, usedPorts(node), portCount);
    if (ports) return { ok: true, node, ports };
  }
  return { ok: false, reason: 'full' };
}

/** The lowest `count` ports of the range not in use, or undefined when there are too few. */
export function freePorts(range: { from: number; to: number }, used: PortsInUse, count: number): number[] | undefined {
  if (used.lowestFree) return used.lowestFree(range, count);
  const ports: number[] = [];
  for (let port = range.from; port <= range.to && ports.length < count; port++) {
    if (!used.has(port)) ports.push(port);
  }
  return ports.length === count ? ports : undefined;
}
