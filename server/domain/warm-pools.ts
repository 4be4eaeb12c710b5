/**
 * Warm pools' definitions: the fleet file's `pools`, with sizes set in the admin panel over
 * them, which starts a pool can serve, and which of a location's nodes can run its warm game
 * servers. A pool's game servers all run with its `env` and `args`, so only a start asking for
 * exactly those (labels are free) takes a warm server; any other is served cold.
 */
import { createHash } from 'node:crypto';
import type { LocationConfig, NodeConfig, PoolConfig, SessionLimits, TagConfig } from '../config/fleet-types.js';
import type { Runtime, WarmAllocation } from './ports/runtime.js';
import type { SessionRecord } from './ports/sessions.js';
import type { PoolKey, WarmServerRepository } from './ports/warm-servers.js';

export interface PoolView extends PoolKey {
  /** How many warm servers the pool keeps. */
  warm: number;
  /** Where that number comes from: the fleet file, or the admin panel over it. */
  source: 'fleet' | 'panel';
  env: Record<string, string>;
  args: string[];
}

export const poolName = (pool: PoolKey): string => `${pool.location}/${pool.image}:${pool.tag}`;
/** What a claimed warm game server learns of its session (its players join later). */
export const warmAllocationOf = (session: SessionRecord): WarmAllocation => ({ id: session.id, labels: session.labels, players: [], restart: session.restart });
/**
 * What a pool's warm servers are launched with, as one string: the pool's env and args, the tag
 * (command, ports, container, readiness) and the limits. Kept with each warm server, so that a
 * run whose fleet file says otherwise retires the ones it adopts rather than hand a start that
 * asked for the new env one running the old (or an image's new version shadowed by the old one).
 */
export const warmLaunchOf = (pool: Pick<PoolView, 'env' | 'args'>, tag: TagConfig, limits: SessionLimits): string =>
  createHash('sha256').update(JSON.stringify([pool.env, pool.args, tag, limits])).digest('base64url');
export const samePool = (a: PoolKey, b: PoolKey) => a.location === b.location && a.image === b.image && a.tag === b.tag;
/** The location's nodes where warm game servers can run (Docker: engines of this machine, which serve their SDK); a runtime that does not say: all of them. */
export const warmNodesOf = (location: LocationConfig, runtime: Pick<Runtime, 'canWarm'>): NodeConfig[] => location.nodes.filter((node) => runtime.canWarm?.(node.id) ?? true);

export class WarmPools {
  constructor(
    private readonly fleet: readonly PoolConfig[],
    private readonly store: Pick<WarmServerRepository, 'sizes' | 'setSize'>,
  ) {}

  /** Every pool: the fleet file's, and those the panel sized for a (location, image, tag) the file has none for. */
  async list(): Promise<PoolView[]> {
    const sizes = await this.store.sizes();
    const pools: PoolView[] = this.fleet.map((pool) => {
      const set = sizes.find((size) => samePool(size, pool));
      return { ...key(pool), warm: set?.warm ?? pool.warm, source: set ? 'panel' : 'fleet', env: pool.env ?? {}, args: pool.args ?? [] };
    });
    for (const size of sizes) {
      if (!pools.some((pool) => samePool(pool, size))) pools.push({ ...key(size), warm: size.warm, source: 'panel', env: {}, args: [] });
    }
    return pools;
  }

  /** The pool that serves this start, if any: same (location, image, tag), same env and args, and a size above zero. */
  async serving(pool: PoolKey, env: Record<string, string> = {}, args: readonly string[] = []): Promise<PoolView | undefined> {
    const found = (await this.list()).find((candidate) => samePool(candidate, pool));
    if (!found || found.warm === 0) return undefined;
    return sameEnv(found.env, env) && sameArgs(found.args, args) ? found : undefined;
  }

  setSize(pool: PoolKey, warm: number, at: number): Promise<void> {
    return this.store.setSize(key(pool), warm, at);
  }
}

const key = ({ location, image, tag }: PoolKey): PoolKey => ({ location, image, tag });

function sameEnv(a: Record<string, string>, b: Record<string, string>): boolean {
  const names = Object.keys(a);
  return names.length === Object.keys(b).length && names.every((name) => Object.hasOwn(b, name) && b[name] === a[name]);
}

function sameArgs(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((arg, i) => arg === b[i]);
}
