/**
 * The addresses of the host the service runs on, from its network interfaces. The egress guard
 * refuses them: a host with a public address runs services bound to every interface (exporters,
 * databases' HTTP ports, an engine's API) that answer a connection from the host itself, often
 * past the firewall that keeps the Internet out, and the internal ranges do not name them. As the
 * game servers' firewall does (`fib daddr type local`).
 */
import { networkInterfaces } from 'node:os';

/** Interfaces change rarely (a VPN up, an address added); reading them costs a netlink dump, so once a second at most. */
const FRESH_MS = 1_000;

let cached: { at: number; addresses: readonly string[] } | undefined;

export function ownAddresses(): readonly string[] {
  const now = performance.now();
  if (!cached || now - cached.at >= FRESH_MS) {
    const addresses = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => entry.address));
    cached = { at: now, addresses };
  }
  return cached.addresses;
}
