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
  };
}

/** The columns of a new warm server, in the order both stores insert them. */
export function warmServerValues(server: WarmServer): unknown[] {
  const { key, location, image, tag, nodeId, host, ports, status, created } = server;
  return [key, location, image, tag, nodeId, host, JSON.stringify(ports), status, created];
}

export function createWarmServerRepository(db: Db): Sync<WarmServerRepository> {
  const insert = db.prepare(
    'INSERT INTO warm_servers (key, location, image, tag, node_id, host, ports, status, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  // One statement: SQLite runs one writer at a time, so the row it picks is deleted before any other claim reads.
  // By `created` alone: the pool's index gives that order without a sort (ties are any order).
  const claimSql = (ofKeys: string) => `DELETE FROM warm_servers WHERE key = (
       SELECT key FROM warm_servers
       WHERE location = ? AND image = ? AND tag = ? AND status = 'ready' AND node_id IN (SELECT value FROM json_each(?))${ofKeys}
       ORDER BY created LIMIT 1)
     RETURNING *`;
  const claim = db.prepare<[string, string, string, string], WarmServerRow>(claimSql(''));
  const claimOf = db.prepare<[string, string, string, string, string], WarmServerRow>(claimSql(' AND key IN (SELECT value FROM json_each(?))'));
  const markReady = db.prepare("UPDATE warm_servers SET status = 'ready' WHERE key = ? AND status = 'starting'");
  const remove = db.prepare('DELETE FROM warm_servers WHERE key = ?');
  const all = db.prepare<[], WarmServerRow>('SELECT * FROM warm_servers');
  const countOn = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM warm_servers WHERE node_id = ?');
  const countOf = db.prepare<[string, string, string], { n: number }>('SELECT count(*) AS n FROM warm_servers WHERE location = ? AND image = ? AND tag = ?');
  const portsOn = db
    .prepare<[string], number>("SELECT json_extract(p.value, '$.host') FROM warm_servers w, json_each(w.ports) p WHERE w.host = ?")
    .pluck();
  const sizes = db.prepare<[], PoolKey & { warm: number }>('SELECT location, image, tag, warm FROM warm_pool_sizes ORDER BY location, image, tag');
  const setSize = db.prepare(
    'INSERT INTO warm_pool_sizes (location, image, tag, warm, at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (location, image, tag) DO UPDATE SET warm = excluded.warm, at = excluded.at',
  );
  return {
    insert: (server) => void insert.run(...warmServerValues(server)),
    claim: (pool, nodeIds, keys) => {
      const nodes = JSON.stringify(nodeIds);
      const row = keys ? claimOf.get(pool.location, pool.image, pool.tag, nodes, JSON.stringify(keys)) : claim.get(pool.location, pool.image, pool.tag, nodes);
      return row && toWarmServer(row);
    },
    markReady: (key) => markReady.run(key).changes > 0,
    remove: (key) => remove.run(key).changes > 0,
    all: () => all.all().map(toWarmServer),
    countOn: (nodeId) => countOn.get(nodeId)!.n,
    countOf: (pool) => countOf.get(pool.location, pool.image, pool.tag)!.n,
    portsInUse: (host) => new Set(portsOn.all(host)),
    sizes: () => sizes.all(),
    setSize: (pool, warm, at) => void setSize.run(pool.location, pool.image, pool.tag, warm, at),
  };
}
