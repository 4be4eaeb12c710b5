/**
 * The units a client address is limited as.
 * - Its subscriber (`clientUnit`): IPv4, the address; IPv6, its /64, because one subscriber (and
 *   so one attacker) gets a whole /64 and can change the low 64 bits at will.
 * - Its network (`clientNetwork`): IPv6, its /48 (what one site is given: 65,536 /64s); IPv4,
 *   its /24, the smallest block routed on the internet, so what one hosting customer's or one
 *   site's neighbouring addresses share. Finer than that an attacker renting a handful of
 *   addresses from one provider gets them anyway; coarser would make unrelated networks share.
 * IPv4-mapped IPv6 (`::ffff:192.0.2.1`, as a dual-stack socket reports IPv4 clients) is the IPv4
 * address it carries. Anything else (no IP at all) is its own unit and network.
 */
import { isIPv4, isIPv6 } from 'node:net';

export function clientUnit(address: string): string {
  const ip = parse(address);
  return ip.kind === 'ipv6' ? prefix(ip.groups, 4) : ip.address;
}

export function clientNetwork(address: string): string {
  const ip = parse(address);
  if (ip.kind === 'ipv6') return prefix(ip.groups, 3);
  if (ip.kind === 'ipv4') return `${ip.address.split('.').slice(0, 3).join('.')}.0/24`;
  return ip.address;
}

type Parsed = { kind: 'ipv4' | 'other'; address: string } | { kind: 'ipv6'; groups: number[] };

function parse(address: string): Parsed {
  if (isIPv4(address)) return { kind: 'ipv4', address };
  if (!isIPv6(address)) return { kind: 'other', address };
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [high, low] = [groups[6]!, groups[7]!];
    return { kind: 'ipv4', address: [high >> 8, high & 255, low >> 8, low & 255].join('.') };
  }
  return { kind: 'ipv6', groups };
}

/** The first `count` groups as a prefix: `2001:db8:1::/48` style, written out group by group. */
function prefix(groups: number[], count: number): string {
  return `${groups.slice(0, count).map((g) => g.toString(16)).join(':')}::/${count * 16}`;
}

/** The eight 16-bit groups of a valid IPv6 address (zone dropped, `::` and a dotted IPv4 tail expanded). */
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0]!;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}
