/** SQLite side of warm servers (see ../domain/ports/warm-servers.ts; postgres/warm-servers.ts for PostgreSQL). */
import type { PoolKey, WarmServer, WarmServerRepository } from '../domain/ports/warm-servers.js';
import type { Sync } from './async.js';
import type { Db } from './sqlite.js';

export interface WarmServerRow {
  key: string;
  location: string;
  image: string;
  tag: string;
  node_id: string;
  host: string;
  ports: string;
  status: WarmServer['status'];
  created: number;
  launch: string;
}

export function toWarmServer(row: WarmServerRow): WarmServer {
  return {
    key: row.key,
    location: row.location,
    image: row.image,
    tag: row.tag,
    nodeId: row.node_id,
    host: row.host,
    ports: JSON.parse(row.ports) as WarmServer['ports'],
    status: row.status,
    created: row.created,
    launch: row.launch,
  };
}

/** The columns of a new warm server, in the order both stores insert them. */
export function warmServerValues(server: WarmServer): unknown[] {
  const { key, location, image, tag, nodeId, host, ports, status, created, launch } = server;
  return [key, location, image, tag, nodeId, host, JSON.stringify(ports), status, created, launch];
}

/**
 * `reload` reads the warm servers and pool sizes into memory again. Reads are answered from
 * memory (a start reads the pools' sizes and, to place a cold session, the warm servers' slots
 * and ports; a refill pass reads them all): this process is the only writer of its database, and
 * each write updates the copy in the same call; the store calls reload after a rollback.
 */
export function createWarmServerRepository(db: Db): Sync<WarmServerRepository> & { reload(): void } {
  const insert = db.prepare(
    'INSERT INTO warm_servers (key, location, image, tag, node_id, host, ports, status, created, launch) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  // One statement: SQLite runs one writer at a time, so the row it picks is deleted before any other claim reads.
  // By `created` alone: the pool's index gives that order without a sort (ties are any order).
  const claimSql = (ofKeys: string) => `DELETE FROM warm_servers WHERE key = (
       SELECT key FROM warm_servers
       WHERE location = ? AND image = ? AND tag = ? AND status = 'ready' AND node_id IN (SELECT value FROM json_each(?))${ofKeys}
       ORDER BY created LIMIT 1)
     RETURNING key`;
  const claim = db.prepare<[string, string, string, string], { key: string }>(claimSql(''));
  const claimOf = db.prepare<[string, string, string, string, string], { key: string }>(claimSql(' AND key IN (SELECT value FROM json_each(?))'));
  const markReady = db.prepare("UPDATE warm_servers SET status = 'ready' WHERE key = ? AND status = 'starting'");
  const remove = db.prepare('DELETE FROM warm_servers WHERE key = ?');
  const all = db.prepare<[], WarmServerRow>('SELECT * FROM warm_servers');
  const sizes = db.prepare<[], PoolKey & { warm: number }>('SELECT location, image, tag, warm FROM warm_pool_sizes ORDER BY location, image, tag');
  const setSize = db.prepare(
    'INSERT INTO warm_pool_sizes (location, image, tag, warm, at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (location, image, tag) DO UPDATE SET warm = excluded.warm, at = excluded.at',
  );

  /** Records are replaced, never changed in place: a caller holding one keeps its snapshot. */
  let servers = new Map<string, WarmServer>();
  let poolSizes: (PoolKey & { warm: number })[] = [];
  const reload = () => {
    servers = new Map(all.all().map((row) => [row.key, toWarmServer(row)]));
    poolSizes = sizes.all();
  };
  reload();
  const count = (matches: (server: WarmServer) => boolean) => {
    let n = 0;
    for (const server of servers.values()) if (matches(server)) n++;
    return n;
  };

  return {
    reload,
    insert: (server) => {
      insert.run(...warmServerValues(server));
      servers.set(server.key, { ...server, ports: server.ports.map((port) => ({ ...port })) });
    },
    claim: (pool, nodeIds, keys) => {
      const nodes = JSON.stringify(nodeIds);
      const row = keys ? claimOf.get(pool.location, pool.image, pool.tag, nodes, JSON.stringify(keys)) : claim.get(pool.location, pool.image, pool.tag, nodes);
      if (!row) return undefined;
      const server = servers.get(row.key)!;
      servers.delete(row.key);
      return server;
    },
    markReady: (key) => {
      if (markReady.run(key).changes === 0) return false;
      servers.set(key, { ...servers.get(key)!, status: 'ready' });
      return true;
    },
    remove: (key) => {
      const removed = remove.run(key).changes > 0;
      servers.delete(key);
      return removed;
    },
    all: () => [...servers.values()],
    countOn: (nodeId) => count((server) => server.nodeId === nodeId),
    countOf: (pool) => count((server) => server.location === pool.location && server.image === pool.image && server.tag === pool.tag),
    portsInUse: (host) => {
      const ports = new Set<number>();
      for (const server of servers.values()) if (server.host === host) for (const port of server.ports) ports.add(port.host);
      return ports;
    },
    sizes: () => poolSizes,
    setSize: (pool, warm, at) => {
      setSize.run(pool.location, pool.image, pool.tag, warm, at);
      poolSizes = sizes.all();
    },
  };
}
