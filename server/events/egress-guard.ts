/**
 * Where webhooks may go. A subscription URL names a host the service will POST to, so without a
 * guard any token holder could aim the service at itself, at the cloud metadata address or at
 * the private network (and read the delivery log's status codes as a port scan). Refused: the
 * loopback, unspecified, private, shared (CGNAT), link-local, unique-local, multicast, reserved
 * and documentation ranges, and every address of the service's own host, unless the operator
 * allows a named range (WEBHOOK_ALLOWED_NETWORKS, e.g. `10.1.0.0/16`). Checked when a subscription is created (by
 * resolving its host) and again on every connection, on the very address connected to, so a
 * name that resolves elsewhere later (DNS rebinding) gains nothing.
 */
import type { LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { HostResolver } from './host-resolver.js';
import { ownAddresses } from './own-addresses.js';

const REFUSED: [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'], // "this network", unspecified
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // shared address space (CGNAT)
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'], // link-local, cloud metadata
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, broadcast
  // Unspecified (::), loopback (::1), and an IPv4 address in the low bits: IPv4-compatible
  // (deprecated, RFC 4291) and IPv4-translated (SIIT, RFC 2765); a translator on the path takes
  // them to the IPv4 address (::7f00:1, loopback).
  ['::', 96, 'ipv6'],
  ['::ffff:0:0:0', 96, 'ipv6'],
  ['64:ff9b::', 96, 'ipv6'], // NAT64 of any IPv4 address
  ['64:ff9b:1::', 48, 'ipv6'], // local-use NAT64 (RFC 8215), private IPv4 networks too
  ['2002::', 16, 'ipv6'], // 6to4, an IPv4 address in its bits (the game servers' firewall refuses both)
  ['100::', 64, 'ipv6'], // discard
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['fc00::', 7, 'ipv6'], // unique-local
  ['fe80::', 10, 'ipv6'], // link-local
  ['ff00::', 8, 'ipv6'], // multicast
];

/** `a.b.c.d/n` or `v6::/n`, as [address, prefix, family]; undefined when malformed. */
export function parseNetwork(text: string): [string, number, 'ipv4' | 'ipv6'] | undefined {
  const [address, prefixText, extra] = text.trim().split('/');
  const family = isIP(address ?? '');
  if (!address || extra !== undefined || family === 0) return undefined;
  const max = family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max || (prefixText !== undefined && !/^\d+$/.test(prefixText))) return undefined;
  return [address, prefix, family === 4 ? 'ipv4' : 'ipv6'];
}

export type UrlVerdict = { ok: true } | { ok: false; why: string };

export class EgressGuard {
  private readonly refused = new BlockList();
  private readonly allowed = new BlockList();
  /** The host's own addresses as last read, as a block list. */
  private own: { of: readonly string[]; list: BlockList } | undefined;

  /**
   * `allowedNetworks`: CIDRs the operator allows although they are refused by default.
   * `resolver`: how host names are resolved (c-ares with a deadline; see host-resolver.ts).
   * `hostAddresses`: the service host's own addresses, refused like the internal ranges.
   */
  constructor(
    allowedNetworks: readonly string[] = [],
    private readonly resolver = new HostResolver(),
    private readonly hostAddresses: () => readonly string[] = ownAddresses,
  ) {
    for (const [address, prefix, family] of REFUSED) this.refused.addSubnet(address, prefix, family);
    for (const network of allowedNetworks) {
      const parsed = parseNetwork(network);
      if (!parsed) throw new Error(`not a network: ${network}`);
      this.allowed.addSubnet(...parsed);
    }
  }

  /** Whether the service may connect to this IP address. */
  permits(address: string): boolean {
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    return this.allowed.check(address, family) || !(this.refused.check(address, family) || this.isOwn(address, family));
  }

  /** Whether the address is one of the host's own (an IPv4-mapped spelling of one too). */
  private isOwn(address: string, family: 'ipv4' | 'ipv6'): boolean {
    const addresses = this.hostAddresses();
    // Built again only when the interfaces were read again (ownAddresses() answers the same list until then).
    if (this.own?.of !== addresses) {
      const list = new BlockList();
      for (const host of addresses) {
        const hostFamily = isIP(host);
        if (hostFamily !== 0) list.addAddress(host, hostFamily === 4 ? 'ipv4' : 'ipv6');
      }
      this.own = { of: addresses, list };
    }
    return this.own.list.check(address, family);
  }

  /** Whether a subscription URL may be used: http(s), and its host resolves only to permitted addresses. */
  async check(url: string, accountId: string): Promise<UrlVerdict> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return { ok: false, why: 'must be an absolute URL' };
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, why: 'must be http or https' };
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    let addresses: string[];
    try {
      addresses = (await this.resolver.resolve(host, accountId)).map((a) => a.address);
    } catch (error) {
      return { ok: false, why: error instanceof Error ? error.message : `host ${host} does not resolve` };
    }
    const refused = addresses.find((address) => !this.permits(address));
    if (refused) return { ok: false, why: `must not point to a loopback, private, link-local or otherwise internal address (${host} is ${refused})` };
    return { ok: true };
  }

  /** The DNS lookup for an account's outgoing connections: answers only permitted addresses, else fails. */
  lookupFor(accountId: string): LookupFunction {
    return (hostname, options, callback) => {
      this.resolver.resolve(hostname, accountId).then(
        (found) => {
          const permitted = found.filter((a) => this.permits(a.address) && (!options.family || a.family === options.family));
          if (permitted.length === 0) {
            const refused = Object.assign(new Error(`refused: ${hostname} resolves only to internal addresses`), { code: 'EADDRNOTAVAIL' });
            return callback(refused, '', 0);
          }
          if (options.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, permitted);
          return callback(null, permitted[0]!.address, permitted[0]!.family);
        },
        (error: NodeJS.ErrnoException) => callback(error, '', 0),
      );
    };
  }
}
