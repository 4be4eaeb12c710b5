/**
 * Open connections per client address. The service-wide cap (`HTTP_MAX_CONNECTIONS`) alone lets
 * one client hold every slot: a connection is held before anything is authenticated (a request's
 * headers, then its body one byte every few seconds, until the request deadline; then again), so
 * one unauthenticated address could keep every other caller out. Counted by the address's unit
 * (IPv4 address, IPv6 /64: client-address.ts). Connections from a trusted proxy (TRUST_PROXY) are
 * not counted: they carry everyone's requests, and the proxy limits its own clients
 * (deploy/haproxy.cfg).
 */
import { BlockList, isIPv6, type Socket } from 'node:net';
import { clientUnit } from '../domain/client-address.js';
import { parseNetwork } from '../events/egress-guard.js';

export class ConnectionsPerAddress {
  readonly #open = new Map<string, number>();
  /** Units refused since they were last under the limit: each is reported once, not per connection. */
  readonly #refusing = new Set<string>();
  readonly #trusted = new BlockList();

  /** `onLimitReached`: called with a unit at its first refusal since it was last under the limit. */
  constructor(
    private readonly limit: number,
    trustedProxies: readonly string[] = [],
    private readonly onLimitReached: (unit: string) => void = () => {},
  ) {
    // An address is a network of one (config/environment.ts checked them all).
    for (const proxy of trustedProxies) this.#trusted.addSubnet(...parseNetwork(proxy)!);
  }

  /** Counts `socket` against its address, or refuses it (false) when that address holds the limit. */
  admit(socket: Socket): boolean {
    const address = socket.remoteAddress;
    // IPv4-mapped IPv6 (a dual-stack socket's IPv4 clients) matches IPv4 rules in a BlockList.
    if (address === undefined || this.#trusted.check(address, isIPv6(address) ? 'ipv6' : 'ipv4')) return true;
    const unit = clientUnit(address);
    const open = this.#open.get(unit) ?? 0;
    if (open >= this.limit) {
      if (!this.#refusing.has(unit)) {
        this.#refusing.add(unit);
        this.onLimitReached(unit);
      }
      return false;
    }
    this.#open.set(unit, open + 1);
    socket.once('close', () => {
      const left = this.#open.get(unit)! - 1;
      this.#refusing.delete(unit);
      if (left === 0) this.#open.delete(unit);
      else this.#open.set(unit, left);
    });
    return true;
  }
}
