/**
 * The levels /metrics reports, read from their owners at scrape time: live sessions, capacity
 * per node, and the quota used by the accounts using the most (a fixed number of them, so an
 * operator with ten thousand accounts does not get ten thousand series).
 */
import type { AccountRepository } from '../domain/ports/accounts.js';
import type { Quota } from '../domain/quota.js';
import type { SessionRecord } from '../domain/ports/sessions.js';
import type { LocationView } from '../domain/sessions.js';
import type { Metrics } from './metrics.js';

export interface LevelSources {
  liveSessions: () => Promise<Iterable<SessionRecord>>;
  locations: () => Promise<LocationView[]>;
  accounts: Pick<AccountRepository, 'mostUsed'>;
  /** Accounts whose running sessions add to their usage right now. */
  accountsWithRunningSessions: () => Promise<string[]>;
  quota: Pick<Quota, 'usage'>;
  /** How many accounts get a quota series. */
  topAccounts: number;
}

/** Live sessions by (location, state, image), the labels of the sessions gauge. */
export function countSessions(sessions: Iterable<SessionRecord>): Map<string, { location: string; state: string; image: string; count: number }> {
  const counts = new Map<string, { location: string; state: string; image: string; count: number }>();
  for (const { location, status, image } of sessions) {
    const key = `${location}\0${status}\0${image}`;
    const entry = counts.get(key);
    if (entry) entry.count += 1;
    else counts.set(key, { location, state: status, image, count: 1 });
  }
  return counts;
}

/**
 * A read shared by the gauges of one scrape: the registry collects them one after another in
 * the same pass, so three node gauges walk the locations once and the two quota gauges rank the
 * accounts once (at 10,000 live sessions a scrape costs about 20 ms of CPU; each walk counts).
 */
function perScrape<T>(read: () => T): () => T {
  let cached: { value: T } | undefined;
  return () => {
    if (!cached) {
      cached = { value: read() };
      setImmediate(() => (cached = undefined));
    }
    return cached.value;
  };
}

export function registerLevels(metrics: Metrics, sources: LevelSources): void {
  const locations = perScrape(sources.locations);
  const quotaUsers = perScrape(() => topQuotaUsers(sources));
  metrics.level('sessions', 'Live sessions, by location, state and image.', ['location', 'state', 'image'], async (set) => {
    for (const { count, ...labels } of countSessions(await sources.liveSessions()).values()) set(labels, count);
  });
  metrics.level('node_capacity', 'Sessions a node can hold, by location and node.', ['location', 'node'], async (set) => {
    for (const location of await locations()) for (const node of location.nodes) set({ location: location.id, node: node.id }, node.capacity);
  });
  metrics.level('node_sessions', 'Slots used on a node (live sessions and warm servers), by location and node.', ['location', 'node'], async (set) => {
    for (const location of await locations()) for (const node of location.nodes) set({ location: location.id, node: node.id }, node.used);
  });
  metrics.level('node_locked', '1 when the node is locked (maintenance), by location and node.', ['location', 'node'], async (set) => {
    for (const location of await locations()) for (const node of location.nodes) set({ location: location.id, node: node.id }, node.locked ? 1 : 0);
  });
  metrics.level(
    'account_quota_used_minutes',
    `Runtime quota used (running sessions included), for the ${sources.topAccounts} accounts using the most.`,
    ['account'],
    async (set) => {
      for (const { account, usedMinutes } of await quotaUsers()) set({ account }, usedMinutes);
    },
  );
  metrics.level(
    'account_quota_total_minutes',
    `Runtime quota granted, for the same ${sources.topAccounts} accounts.`,
    ['account'],
    async (set) => {
      for (const { account, totalMinutes } of await quotaUsers()) set({ account }, totalMinutes);
    },
  );
}

/**
 * The accounts using the most quota: the most charged ones plus every account with running
 * sessions (whose charge is not written until they end), ranked by their live usage.
 */
export async function topQuotaUsers(sources: LevelSources): Promise<{ account: string; usedMinutes: number; totalMinutes: number }[]> {
  const mostUsed = await sources.accounts.mostUsed(sources.topAccounts);
  const candidates = new Set([...mostUsed.map((a) => a.id), ...(await sources.accountsWithRunningSessions())]);
  const users = await Promise.all(
    [...candidates].map(async (account) => {
      const usage = await sources.quota.usage(account);
      return { account, usedMinutes: usage.usedSeconds / 60, totalMinutes: usage.total };
    }),
  );
  return users
    .sort((a, b) => b.usedMinutes - a.usedMinutes || a.account.localeCompare(b.account))
    .slice(0, sources.topAccounts);
}
