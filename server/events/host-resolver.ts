/**
 * Resolves caller-supplied host names (webhook URLs) without touching the process's shared
 * getaddrinfo queue. `dns.lookup` runs on libuv's thread pool, where at most two lookups run at
 * a time for the whole process, each held for the system resolver's whole timeout: one account's
 * URLs on a domain whose name server never answers would stall every lookup of the service
 * (other accounts' deliveries, PostgreSQL reconnects). So names are asked of DNS through c-ares
 * (`dns.promises.Resolver`: no thread pool) with a short timeout, few tries and a deadline, and
 * lookups in flight are capped per account and service-wide. c-ares' resolve4/6 do not read the
 * hosts file, so IP literals and hosts-file names (`localhost`) are answered here first.
 */
import { promises as dns, type LookupAddress } from 'node:dns';
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';

export interface HostResolverOptions {
  /** DNS servers (`addr[:port]`); the system's (resolv.conf) when absent. Tests point it at a silent one. */
  servers?: readonly string[];
  /** Per query try, and tries per server (c-ares). */
  timeoutMs?: number;
  tries?: number;
  /** The whole lookup (A and AAAA together) gives up after this long. */
  deadlineMs?: number;
  /** Lookups in flight at once, per account and in all. */
  perAccount?: number;
  total?: number;
  hostsFile?: string;
}

/** An expected failure: the message is what the caller is told. */
export class ResolveError extends Error {
  constructor(message: string, readonly code: 'ENOTFOUND' | 'ETIMEOUT' | 'EBUSY') {
    super(message);
  }
}

/** The hosts file is re-read at most this often (it rarely changes; reading it per lookup is waste). */
const HOSTS_TTL_MS = 30_000;
const LOCALHOST: LookupAddress[] = [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }];

export class HostResolver {
  private readonly inFlight = new Map<string, number>();
  private total = 0;
  private hosts: { read: number; names: Promise<Map<string, LookupAddress[]>> } | undefined;
  private readonly options: Required<Omit<HostResolverOptions, 'servers'>> & Pick<HostResolverOptions, 'servers'>;

  constructor(options: HostResolverOptions = {}) {
    this.options = { timeoutMs: 2000, tries: 2, deadlineMs: 5000, perAccount: 4, total: 64, hostsFile: '/etc/hosts', ...options };
  }

  /** Every address of `host` (IPv4 and IPv6), or a ResolveError. `accountId` is whose lookup it is (for the cap). */
  async resolve(host: string, accountId: string): Promise<LookupAddress[]> {
    const family = isIP(host);
    if (family) return [{ address: host, family }];
    const name = host.toLowerCase().replace(/\.$/, '');
    const listed = (await this.hostsNames()).get(name) ?? (name === 'localhost' || name.endsWith('.localhost') ? LOCALHOST : undefined);
    if (listed) return listed;
    const { perAccount, total } = this.options;
    const mine = this.inFlight.get(accountId) ?? 0;
    if (mine >= perAccount || this.total >= total) {
      throw new ResolveError(`too many host name lookups in flight (at most ${perAccount} per account, ${total} in all); try again shortly`, 'EBUSY');
    }
    this.inFlight.set(accountId, mine + 1);
    this.total++;
    try {
      return await this.ask(name);
    } finally {
      this.total--;
      const left = (this.inFlight.get(accountId) ?? 1) - 1;
      if (left > 0) this.inFlight.set(accountId, left);
      else this.inFlight.delete(accountId);
    }
  }

  /** A and AAAA through a resolver of its own, so cancelling at the deadline cancels only this lookup. */
  private async ask(name: string): Promise<LookupAddress[]> {
    const { timeoutMs, tries, deadlineMs, servers } = this.options;
    const resolver = new dns.Resolver({ timeout: timeoutMs, tries });
    if (servers) resolver.setServers([...servers]);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), deadlineMs);
    });
    try {
      const answers = Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]);
      const outcome = await Promise.race([answers, deadline]);
      if (outcome === 'late') throw new ResolveError(`host ${name} did not resolve within ${deadlineMs} ms`, 'ETIMEOUT');
      const [v4, v6] = outcome;
      const found: LookupAddress[] = [
        ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
        ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
      ];
      if (found.length > 0) return found;
      const timedOut = [v4, v6].some((r) => r.status === 'rejected' && (r.reason as { code?: string }).code === 'ETIMEOUT');
      throw timedOut
        ? new ResolveError(`host ${name} did not resolve within ${deadlineMs} ms`, 'ETIMEOUT')
        : new ResolveError(`host ${name} does not resolve`, 'ENOTFOUND');
    } finally {
      clearTimeout(timer);
      resolver.cancel();
    }
  }

  private hostsNames(): Promise<Map<string, LookupAddress[]>> {
    // Monotonic: a wall clock stepped back kept the first read for as long as the step.
    const now = performance.now();
    if (!this.hosts || now - this.hosts.read > HOSTS_TTL_MS) {
      this.hosts = { read: now, names: readFile(this.options.hostsFile, 'utf8').then(parseHosts, () => new Map()) };
    }
    return this.hosts.names;
  }
}

/** `/etc/hosts` as name -> addresses (comments and malformed lines skipped). */
export function parseHosts(text: string): Map<string, LookupAddress[]> {
  const names = new Map<string, LookupAddress[]>();
  for (const line of text.split('\n')) {
    const [address, ...aliases] = line.replace(/#.*/, '').trim().split(/\s+/);
    const family = isIP(address ?? '');
    if (!family) continue;
    for (const alias of aliases) {
      const key = alias.toLowerCase();
      const list = names.get(key) ?? [];
      if (!list.some((a) => a.address === address)) list.push({ address: address!, family });
      names.set(key, list);
    }
  }
  return names;
}
