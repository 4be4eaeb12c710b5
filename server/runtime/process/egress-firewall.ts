/**
 * The process runtime's egress firewall: what a sandboxed game server may connect to.
 *
 * pasta carries a game server's outbound traffic on sockets of its own, on the host's side and
 * under the session's uid; so the host's `output` hook sees every new connection a game server
 * opens, owned by a uid of `runtime.uids`. This instance's nftables table refuses those to
 * - the host itself: any of its addresses (`fib daddr type local`: loopback, the node's address,
 *   bridges, VPNs, whatever is added later), so no host service (the API, PostgreSQL, dockerd's
 *   TCP, exporters) answers a game server, whatever address it listens on;
 * - link-local destinations (169.254.0.0/16: cloud metadata and its credentials; fe80::/10),
 *   Azure's host endpoint 168.63.129.16 and multicast groups (224.0.0.0/4, ff00::/8), always;
 * - private networks (RFC 1918, 100.64.0.0/10, fc00::/7, the NAT64 and 6to4 prefixes), except the
 *   operator's `runtime.allowedNetworks` and DNS (port 53) to the host's resolvers.
 * And it bounds how many connections (conntrack entries) each session may have open, and how many
 * it may open a second (`flows`), so game servers cannot fill the host's conntrack table nor make
 * the kernel count one long list per packet (below).
 * As deploy/docker/session-host-firewall.nft does for the Docker runtime (its `flows` fixed in the file). Only new connections
 * are judged: replies to players connecting in (from anywhere, loopback included) pass. pasta
 * leaves a refused connection of the game's unanswered (its connect times out), as a drop would.
 *
 * Applied when the runtime starts, in one transaction that replaces the previous table (atomic
 * and idempotent: a SIGKILLed instance's stale table is replaced by its next start). When the
 * service stops it is removed if none of its game servers is left, and kept while one runs: game
 * servers outlive the service, and must not be let out when it stops.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import type { FleetConfig } from '../../config/fleet-types.js';

const PRIVATE_V4 = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10'];
const PRIVATE_V6 = ['fc00::/7', '64:ff9b::/96', '64:ff9b:1::/48', '2002::/16'];

export interface EgressPolicy {
  /** The session uids whose new connections are judged. */
  uids: { from: number; to: number };
  /** Private networks game servers may reach (CIDRs, either family). */
  allowedNetworks: readonly string[];
  /** DNS servers game servers may query on port 53 (the host's resolvers). */
  resolvers: readonly string[];
  /** Connections (conntrack entries) each session may have open at once, and open per second. */
  flows: { perSession: number; perSecond: number };
}

/** Outbound connections one session may have open at once (fleet `runtime.outboundFlowsPerSession`). */
const DEFAULT_FLOWS_PER_SESSION = 4096;

/** New outbound connections one session may open per second (fleet `runtime.outboundFlowsPerSecond`). */
const DEFAULT_FLOWS_PER_SECOND = 100;

/** The fewest open connections a session is allowed, however many slots share the table. */
export const MIN_FLOWS_PER_SESSION = 64;

/**
 * The host's conntrack table size (nf_conntrack_max), or 131,072 (the kernel's default on small
 * hosts) when it cannot be read (conntrack not loaded yet: the table's `ct` loads it).
 */
function conntrackMax(path = '/proc/sys/net/netfilter/nf_conntrack_max'): number {
  try {
    const max = Number(readFileSync(path, 'utf8').trim());
    if (Number.isInteger(max) && max > 0) return max;
  } catch {
    // Not loaded yet.
  }
  return 131_072;
}

/**
 * Connections each session may have open: the fleet's setting, lowered so that all the nodes'
 * slots together, full, hold at most half the host's conntrack table (never below
 * MIN_FLOWS_PER_SESSION: `sharedTableWarning` says so then). A per-session bound, not a count of
 * all sessions together: nft's `ct count` walks its whole list of connections for every new one
 * it judges (outside check: 60,000 new flows under one count of all cost 5.4 s of kernel time,
 * 0.3 s without), so one list of every session's connections made each new connection of any
 * game server cost up to a third of a millisecond of the host's packet processing.
 */
export function flowsPerSession(configured: number, slots: number, tableSize: number): number {
  return Math.max(MIN_FLOWS_PER_SESSION, Math.min(configured, Math.floor(tableSize / 2 / Math.max(1, slots))));
}

/** The fleet's flow bounds on this host: each session's, and the slots that share the table. */
export function fleetFlows(fleet: FleetConfig, tableSize = conntrackMax()): EgressPolicy['flows'] & { slots: number; tableSize: number } {
  const slots = fleet.locations.flatMap((location) => location.nodes).reduce((sum, node) => sum + node.capacity, 0);
  return {
    perSession: flowsPerSession(fleet.runtime.outboundFlowsPerSession ?? DEFAULT_FLOWS_PER_SESSION, slots, tableSize),
    perSecond: fleet.runtime.outboundFlowsPerSecond ?? DEFAULT_FLOWS_PER_SECOND,
    slots,
    tableSize,
  };
}

/** A warning when the slots, full, could still hold more than half the host's conntrack table; else undefined. */
export function sharedTableWarning(perSession: number, slots: number, tableSize: number): string | undefined {
  if (perSession * slots <= tableSize / 2) return undefined;
  return (
    `the fleet's ${slots} session slots may hold ${perSession * slots} outbound connections (${perSession} each), more than half of ` +
    `this host's conntrack table (nf_conntrack_max ${tableSize}): past it the kernel drops every new connection of the host; ` +
    'raise net.netfilter.nf_conntrack_max or lower the nodes\' capacity'
  );
}

/** One table per instance (its data directory's hash), as its cgroups are. */
export const egressTable = (instanceGroup: string) => `session_host_egress_${instanceGroup}`;

/** The nft script that replaces the table in one transaction. */
export function egressRuleset(table: string, policy: EgressPolicy): string {
  const family = (cidr: string) => (cidr.includes(':') ? 6 : 4);
  const set = (name: string, type: string, elements: readonly string[]) =>
    `  set ${name} {\n    type ${type}\n    flags interval\n${elements.length > 0 ? `    elements = { ${elements.join(', ')} }\n` : ''}  }`;
  const { from, to } = policy.uids;
  const resolvers = { 4: policy.resolvers.filter((a) => isIP(a) === 4), 6: policy.resolvers.filter((a) => isIP(a) === 6) };
  return [
    `table inet ${table}`,
    `delete table inet ${table}`,
    `table inet ${table} {`,
    set('private_v4', 'ipv4_addr', PRIVATE_V4),
    set('private_v6', 'ipv6_addr', PRIVATE_V6),
    set('allowed_v4', 'ipv4_addr', policy.allowedNetworks.filter((n) => family(n) === 4)),
    set('allowed_v6', 'ipv6_addr', policy.allowedNetworks.filter((n) => family(n) === 6)),
    set('resolvers_v4', 'ipv4_addr', resolvers[4]),
    set('resolvers_v6', 'ipv6_addr', resolvers[6]),
    '  set session_flows {\n    typeof meta skuid\n    size 65536\n    flags dynamic\n  }',
    '  set session_new_flows {\n    typeof meta skuid\n    size 65536\n    flags dynamic,timeout\n    timeout 1m\n  }',
    '  chain output {',
    '    type filter hook output priority filter - 10; policy accept;',
    `    meta skuid != ${from}-${to} accept`,
    '    ct state != new accept',
    // Every new flow is an entry of the host's one conntrack table (nf_conntrack_max, 262,144 on
    // the test VM); full, the kernel drops every new connection of the host: players', the API's,
    // PostgreSQL's. pasta sends a game's UDP to any number of destinations from one socket, so
    // neither its open files nor anything else bounded them: 3,000 datagrams to distinct public
    // addresses were 3,000 entries, each kept 30 s.
    // Counting walks the session's list of connections for each new one: a flood of new ones is
    // cut first, by a token bucket per session (a hash lookup).
    `    update @session_new_flows { meta skuid limit rate over ${policy.flows.perSecond}/second burst ${policy.flows.perSecond * 5} packets } counter reject with icmpx type admin-prohibited`,
    `    add @session_flows { meta skuid ct count over ${policy.flows.perSession} } counter reject with icmpx type admin-prohibited`,
    '    fib daddr type local counter reject with icmpx type admin-prohibited',
    '    ip daddr { 169.254.0.0/16, 168.63.129.16 } counter reject with icmpx type admin-prohibited',
    // With link-local: IPv4 addresses embedded as IPv4-compatible (::/96) and IPv4-translated
    // (::ffff:0:0:0/96), which a translator on the path takes to loopback or private networks.
    '    ip6 daddr { fe80::/10, ::/96, ::ffff:0:0:0/96 } counter reject with icmpx type admin-prohibited',
    // Multicast: pasta sends a game's datagram to a group from the host's socket, out of the
    // host's interface to every neighbour in it (mDNS, SSDP, LAN services' discovery), which is
    // the internal network the private ranges keep it from. No host of a game's players is one.
    '    ip daddr 224.0.0.0/4 counter reject with icmpx type admin-prohibited',
    '    ip6 daddr ff00::/8 counter reject with icmpx type admin-prohibited',
    '    ip daddr @allowed_v4 accept',
    '    ip6 daddr @allowed_v6 accept',
    '    ip daddr @resolvers_v4 meta l4proto { tcp, udp } th dport 53 accept',
    '    ip6 daddr @resolvers_v6 meta l4proto { tcp, udp } th dport 53 accept',
    '    ip daddr @private_v4 counter reject with icmpx type admin-prohibited',
    '    ip6 daddr @private_v6 counter reject with icmpx type admin-prohibited',
    '  }',
    '}',
    '',
  ].join('\n');
}

/** Applies the table; a one-line problem when nft refuses (no nf_tables, a bad range). */
export function applyEgressFirewall(nft: string, table: string, policy: EgressPolicy): string | undefined {
  const result = spawnSync(nft, ['-f', '-'], { input: egressRuleset(table, policy), env: {}, timeout: 10_000, encoding: 'utf8' });
  if (result.status === 0) return undefined;
  const why = (result.stderr || result.error?.message || `exit ${result.status}`).trim().split('\n')[0];
  return `its egress firewall (nftables table ${table}) could not be applied: ${why}`;
}

/** Removes the table: absent is fine. */
export function removeEgressFirewall(nft: string, table: string): void {
  spawnSync(nft, ['-f', '-'], { input: `table inet ${table}\ndelete table inet ${table}\n`, env: {}, timeout: 10_000 });
}

/** The non-loopback nameservers of /etc/resolv.conf (a loopback one is the namespace's own, unreachable anyway). */
export function hostResolvers(resolvConf = '/etc/resolv.conf'): string[] {
  let text: string;
  try {
    text = readFileSync(resolvConf, 'utf8');
  } catch {
    return [];
  }
  return [...text.matchAll(/^\s*nameserver\s+(\S+)/gm)]
    .map((match) => match[1]!.split('%')[0]!)
    .filter((address) => isIP(address) !== 0 && !address.startsWith('127.') && address !== '::1');
}
