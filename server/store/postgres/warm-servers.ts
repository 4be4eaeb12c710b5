/**
 * PostgreSQL side of warm servers (see ../warm-server-repository.ts for SQLite). A claim is
 * exact across instances: it locks the row it takes and skips rows other claims hold
 * (`FOR UPDATE SKIP LOCKED`), so racing claims take different warm servers without waiting.
 */
import type { WarmServerRepository } from '../../domain/ports/warm-servers.js';
import { toWarmServer, warmServerValues, type WarmServerRow } from '../warm-server-repository.js';
import { value, type Sql } from './sql.js';

export function createPgWarmServerRepository(sql: Sql): WarmServerRepository {
  const rows = async (text: string, values: unknown[] = []) => (await sql.rows<WarmServerRow>(text, values)).map(toWarmServer);
  return {
    insert: async (server) => {
      await sql.run(
        'INSERT INTO warm_servers (key, location, image, tag, node_id, host, ports, status, created, launch) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)',
        warmServerValues(server),
      );
    },
    claim: async (pool, nodeIds, keys) =>
      (
        await rows(
          `DELETE FROM warm_servers WHERE key = (
             SELECT key FROM warm_servers
             WHERE location = $1 AND image = $2 AND tag = $3 AND status = 'ready' AND node_id = ANY($4::text[])
               AND ($5::text[] IS NULL OR key = ANY($5::text[]))
             ORDER BY created LIMIT 1 FOR UPDATE SKIP LOCKED)
           RETURNING *`,
          [pool.location, pool.image, pool.tag, [...nodeIds], keys ? [...keys] : null],
        )
      )[0],
    markReady: async (key) => (await sql.run("UPDATE warm_servers SET status = 'ready' WHERE key = $1 AND status = 'starting'", [key])) > 0,
    remove: async (key) => (await sql.run('DELETE FROM warm_servers WHERE key = $1', [key])) > 0,
    all: () => rows('SELECT * FROM warm_servers'),
    countOf: async (pool) =>
      (await value<number>(sql, 'SELECT count(*) AS n FROM warm_servers WHERE location = $1 AND image = $2 AND tag = $3', [pool.location, pool.image, pool.tag]))!,
    countOn: async (nodeId) => (await value<number>(sql, 'SELECT count(*) AS n FROM warm_servers WHERE node_id = $1', [nodeId]))!,
    portsInUse: async (host) =>
      new Set(
        (await sql.rows<{ port: number }>("SELECT (p->>'host')::int AS port FROM warm_servers, jsonb_array_elements(ports::jsonb) p WHERE host = $1", [host])).map(
          (row) => row.port,
        ),
      ),
    sizes: () => sql.rows('SELECT location, image, tag, warm FROM warm_pool_sizes ORDER BY location, image, tag'),
    setSize: async (pool, warm, at) => {
      await sql.run(
        `INSERT INTO warm_pool_sizes (location, image, tag, warm, at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (location, image, tag) DO UPDATE SET warm = excluded.warm, at = excluded.at`,
        [pool.location, pool.image, pool.tag, warm, at],
      );
    },
  };
}
