/**
 * PostgreSQL side of sessions and their event log (see ../session-repository.ts for SQLite).
 * No in-memory read model: several instances write the same tables, so every read goes to the
 * database, on partial indexes over live sessions (a live listing page is an index range scan),
 * as statements prepared once per connection (planning a page cost as much as reading it).
 * Placement is exact across instances: a start locks its account's row and the candidate nodes
 * and host addresses (transaction-scoped advisory locks, sorted so two starts never deadlock)
 * before it counts and inserts; the live-port unique index backs that up.
 */
import type { SessionChanges, SessionFilter, SessionRecord, SessionRepository, StoredEvent, StoredSize } from '../../domain/ports/sessions.js';
import { SESSION_COLUMN_OF, sessionFromRow, type SessionRow } from '../rows.js';
import { value, type PgDb } from './sql.js';

/**
 * Appends to the event log take this lock until their commit, so ids are handed out in commit
 * order and a reader's `id > cursor` never steps over an event that commits later. (Round 4 tried
 * ids ordered by transaction id read below the snapshot's xmin instead: any open transaction on
 * the server, in any database, then stalled every stream, and old servers' transaction ids
 * overflowed JavaScript's integers; on 2 cores three instances were no faster without the lock.)
 */
const EVENT_LOG_LOCK = 0x5e55_0002;

/** The columns of a SessionRow, named (the reads are prepared statements: see Sql.prepared). */
const COLUMNS = [
  'id', 'account_id', 'key', 'image', 'tag', 'location', 'node_id', 'host', 'created', 'status', 'labels', 'args',
  'restart', 'expires', 'pending_end_reason', 'ended', 'exit_code', 'end_reason', 'running_since',
].map((column) => `s.${column}`).join(', ');

/** Sessions with their ports and players, from `rows` (a table or a subquery: a page is cut before its details are read). */
const withDetails = (rows: string) => `
  SELECT ${COLUMNS},
    coalesce((SELECT json_agg(json_build_object('name', p.name, 'type', p.type, 'container', p.container, 'host', p.port) ORDER BY p.container, p.name)
       FROM session_ports p WHERE p.account_id = s.account_id AND p.session_id = s.id), '[]') AS ports_json,
    coalesce((SELECT json_agg(p.player ORDER BY p.joined, p.player)
       FROM session_players p WHERE p.account_id = s.account_id AND p.session_id = s.id), '[]') AS players_json
  FROM ${rows} s`;
const SELECT = withDetails('sessions');
/** Every live session, oldest first: read through the partial indexes on live sessions (migrations 2, 6). */
export const LIVE_SESSIONS = `${SELECT} WHERE s.ended IS NULL ORDER BY s.created, s.id, s.account_id`;

export function createPgSessionStore({ sql, transaction, unhurried }: PgDb): SessionRepository {
  const many = async (text: string, values: unknown[] = []) => (await sql.prepared<SessionRow>(text, values)).map(sessionFromRow);
  const one = async (text: string, values: unknown[]) => (await many(text, values))[0];
  // One row holding every number as a JSON array: these lists grow with the live sessions and are
  // read inside placement's locks, where a row each cost more to parse than the query to run.
  const numbers = async (text: string, values: unknown[]) =>
    JSON.parse((await sql.prepared<{ n: string }>(`SELECT coalesce(json_agg(q.n), '[]') AS n FROM (${text}) q`, values))[0]!.n) as number[];

  return {
    transaction,
    // Reads see only committed (durable) data: nothing to settle.
    readsSettledAtEnd: (fn) => fn(),
    lockForPlacement: async (accountId, keys) => {
      // NO KEY UPDATE, not UPDATE: placements of one account still queue on it, but the foreign-key
      // checks of other transactions' inserts (FOR KEY SHARE) pass: a transition inserting a row of
      // the account never waits on a placement.
      await sql.run('SELECT 1 FROM accounts WHERE id = $1 FOR NO KEY UPDATE', [accountId]);
      await sql.run("SELECT pg_advisory_xact_lock(hashtextextended('placement:' || k, 0)) FROM unnest($1::text[]) AS k ORDER BY k", [
        [...new Set(keys)].sort(),
      ]);
    },
    lockForChange: async (key) => {
      await sql.run('SELECT 1 FROM sessions WHERE key = $1 FOR NO KEY UPDATE', [key]);
    },
    appendEvent: async (session, previous, at) => {
      const json = JSON.stringify(session);
      return (await value<number>(
        sql,
        `WITH lock AS (SELECT pg_advisory_xact_lock($7))
         INSERT INTO session_events (account_id, session_id, status, previous, at, session, bytes)
         SELECT $1, $2, $3, $4, $5, $6, $8 FROM lock RETURNING id`,
        [session.accountId, session.id, session.status, previous, at, json, EVENT_LOG_LOCK, Buffer.byteLength(json)],
      ))!;
    },
    eventsAfter: async (accountId, afterId, limit) =>
      (
        await sql.rows<Omit<StoredEvent, 'session'> & { session: string }>(
          'SELECT id, status, previous, at, session FROM session_events WHERE account_id = $1 AND id > $2 ORDER BY id LIMIT $3',
          [accountId, afterId, limit],
        )
      ).map((row) => ({ ...row, session: JSON.parse(row.session) as SessionRecord })),
    oldestEventId: async () =>
      (await value<number>(sql, 'SELECT last_value + 1 FROM session_events_pruned WHERE EXISTS (SELECT 1 FROM session_events)')) ?? undefined,
    latestEventId: async () =>
      // Committed ones only (an id handed out to a transaction still open may commit after a reader starts here).
      (await value<number | null>(sql, 'SELECT max(id) FROM session_events')) ?? 0,
    // Retention (this and purgeEnded): a backlog may take long, so the maintenance deadline.
    oldestHoldable: async ({ count, bytes }) => {
      const rows = await sql.rows<{ account_id: string; oldest: string | null; newest: string }>(
        `SELECT account_id, min(CASE WHEN n <= $1 AND newer <= $2 THEN id END) AS oldest, max(id) AS newest
       FROM (SELECT account_id, id, row_number() OVER w AS n, sum(bytes) OVER w AS newer FROM session_events
             WINDOW w AS (PARTITION BY account_id ORDER BY id DESC)) AS ranked
       GROUP BY account_id`,
        [count, bytes],
      );
      return new Map(rows.map((row) => [row.account_id, row.oldest === null ? Number(row.newest) + 1 : Number(row.oldest)]));
    },
    pruneEvents: ({ count, sinceMs, bytes, floors }) =>
      unhurried(async () => {
      await sql.run(
        `WITH gone AS (
           DELETE FROM session_events e WHERE (e.id <= (SELECT id FROM session_events ORDER BY id DESC OFFSET $1 LIMIT 1) OR e.at < $2
               OR e.id <= coalesce((SELECT w.id FROM (SELECT id, sum(bytes) OVER (ORDER BY id DESC) AS newer FROM session_events) w WHERE w.newer > $5 ORDER BY w.id DESC LIMIT 1), 0))
             AND e.id <= coalesce((SELECT f.floor FROM unnest($3::text[], $4::bigint[]) AS f(account, floor) WHERE f.account = e.account_id), e.id)
           RETURNING id)
         SELECT setval('session_events_pruned', greatest(p.last_value, (SELECT max(id) FROM gone))) FROM session_events_pruned p`,
        [count, sinceMs, [...(floors?.keys() ?? [])], [...(floors?.values() ?? [])], bytes ?? Number.MAX_SAFE_INTEGER],
      );
      }),
    // Labels and args as stored (JSON text), and the players' ids.
    storedSize: async (accountId) =>
      (
        await sql.rows<StoredSize>(
          `SELECT ((SELECT coalesce(sum(octet_length(labels) + octet_length(args)), 0) FROM sessions WHERE account_id = $1)
                 + (SELECT coalesce(sum(octet_length(player)), 0) FROM session_players WHERE account_id = $1))::float8 AS bytes,
                  (SELECT count(*) FROM session_players WHERE account_id = $1) AS players`,
          [accountId],
        )
      )[0]!,
    purgeEnded: (before) =>
      unhurried(async () => {
        const ended = '(SELECT account_id, id FROM sessions WHERE ended IS NOT NULL AND ended < $1)';
        // What they hold of each account's storedSize, summed per account before they go.
        const freed = await sql.rows<{ account: string } & StoredSize>(
          `SELECT account_id AS account, sum(bytes)::float8 AS bytes, sum(players)::float8 AS players FROM (
             SELECT account_id, octet_length(labels) + octet_length(args) AS bytes, 0 AS players FROM sessions WHERE ended IS NOT NULL AND ended < $1
             UNION ALL
             SELECT account_id, octet_length(player), 1 FROM session_players WHERE (account_id, session_id) IN ${ended}
           ) AS stored GROUP BY account_id`,
          [before],
        );
        await sql.run(`DELETE FROM session_players WHERE (account_id, session_id) IN ${ended}`, [before]);
        await sql.run(`DELETE FROM session_ports WHERE (account_id, session_id) IN ${ended}`, [before]);
        const sessions = await sql.run('DELETE FROM sessions WHERE ended IS NOT NULL AND ended < $1', [before]);
        return { sessions, freed: new Map(freed.map(({ account, bytes, players }) => [account, { bytes, players }])) };
      }),
    launchedAt: (accountId) => numbers('SELECT created AS n FROM sessions WHERE account_id = $1 AND ended IS NULL', [accountId]),
    launchSummary: async (accountId) => {
      const [row] = await sql.rows<{ count: string; mean: number | null; latest: string | null }>(
        'SELECT count(*) AS count, avg(created)::float8 AS mean, max(created) AS latest FROM sessions WHERE account_id = $1 AND ended IS NULL',
        [accountId],
      );
      return { count: Number(row!.count), meanMs: row!.mean ?? 0, latestMs: Number(row!.latest ?? 0) };
    },
    accountsWithLiveSessions: async () =>
      (await sql.rows<{ account_id: string }>('SELECT DISTINCT account_id FROM sessions WHERE ended IS NULL')).map((r) => r.account_id),
    exists: async (accountId, id) => (await sql.rows('SELECT 1 FROM sessions WHERE account_id = $1 AND id = $2', [accountId, id])).length > 0,
    liveSessionsOn: async (nodeId) => (await value<number>(sql, 'SELECT count(*) FROM sessions WHERE node_id = $1 AND ended IS NULL', [nodeId]))!,
    liveCountsByNode: async () =>
      new Map(
        (await sql.rows<{ node_id: string; n: number }>('SELECT node_id, count(*) AS n FROM sessions WHERE ended IS NULL GROUP BY node_id')).map((r) => [
          r.node_id,
          r.n,
        ]),
      ),
    portsInUse: async (host) =>
      new Set(
        await numbers(
          `SELECT p.port AS n FROM sessions s JOIN session_ports p ON p.account_id = s.account_id AND p.session_id = s.id
           WHERE s.host = $1 AND s.ended IS NULL AND p.live = 1`,
          [host],
        ),
      ),
    insert: (r) =>
      transaction(async () => {
        await sql.run(
          `INSERT INTO sessions (id, account_id, key, image, tag, location, node_id, host, created, status, labels, args, restart, expires, running_since)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
          [r.id, r.accountId, r.key, r.image, r.tag, r.location, r.nodeId, r.host, r.created, r.status, JSON.stringify(r.labels), JSON.stringify(r.args), r.restart ? 1 : 0, r.expires, r.runningSince],
        );
        if (r.ports.length === 0) return;
        await sql.run(
          `INSERT INTO session_ports (account_id, session_id, node_id, name, type, container, port)
           SELECT $1, $2, $3, p.name, p.type, p.container, p.port FROM unnest($4::text[], $5::text[], $6::int[], $7::int[]) AS p(name, type, container, port)`,
          [r.accountId, r.id, r.nodeId, r.ports.map((p) => p.name), r.ports.map((p) => p.type), r.ports.map((p) => p.container), r.ports.map((p) => p.host)],
        );
      }),
    find: (key) => one(`${SELECT} WHERE s.key = $1`, [key]),
    findOwned: (accountId, id) => one(`${SELECT} WHERE s.account_id = $1 AND s.id = $2`, [accountId, id]),
    findEverywhere: (id) => many(`${SELECT} WHERE s.id = $1 ORDER BY s.account_id`, [id]),
    list: (filter) => {
      const { where, values } = listWhere(filter);
      values.push(filter.limit ?? null);
      const order = 'ORDER BY s.created DESC, s.id DESC, s.account_id DESC';
      const page = `(SELECT ${COLUMNS} FROM sessions s WHERE ${where.join(' AND ')} ${order} LIMIT $${values.length})`;
      return many(`${withDetails(page)} ${order}`, values);
    },
    positionAfter: async (accountId, after, count) => {
      // The end of a list's scan window: a walk of the account's index (sessions_by_account).
      const values: unknown[] = [accountId, count - 1];
      if (after) values.push(after.created, after.id, after.accountId ?? '');
      const afterIt = after ? ' AND (created, id, account_id) < ($3, $4, $5)' : '';
      const [row] = await sql.prepared<{ created: number; id: string; account_id: string }>(
        `SELECT created, id, account_id FROM sessions WHERE account_id = $1${afterIt} ORDER BY created DESC, id DESC, account_id DESC LIMIT 1 OFFSET $2`,
        values,
      );
      return row && { created: Number(row.created), id: row.id, accountId: row.account_id };
    },
    liveKeysOn: async (nodeId) =>
      (await sql.prepared<{ keys: string[] }>("SELECT coalesce(array_agg(key), '{}') AS keys FROM sessions WHERE node_id = $1 AND ended IS NULL", [nodeId]))[0]!.keys,
    live: () => many(LIVE_SESSIONS),
    update: async (key, changes) => {
      const entries = Object.entries(changes) as [keyof SessionChanges, unknown][];
      if (entries.length === 0) return;
      const set = entries.map(([column], i) => `${SESSION_COLUMN_OF[column]} = $${i + 2}`).join(', ');
      // One statement: the change and, when it ends the session, its ports released.
      await sql.run(
        `WITH changed AS (UPDATE sessions SET ${set} WHERE key = $1 RETURNING account_id, id, ended)
         UPDATE session_ports p SET live = 0 FROM changed c
         WHERE c.ended IS NOT NULL AND p.account_id = c.account_id AND p.session_id = c.id`,
        [key, ...entries.map(([, v]) => v)],
      );
    },
    join: async (key, players, at) =>
      (
        await sql.rows<{ player: string }>(
          `INSERT INTO session_players (account_id, session_id, player, joined)
           SELECT s.account_id, s.id, p, $3 FROM sessions s, unnest($2::text[]) AS p WHERE s.key = $1 ON CONFLICT DO NOTHING
           RETURNING player`,
          [key, [...players], at],
        )
      ).map((r) => r.player),
    leave: async (key, players) =>
      (
        await sql.rows<{ player: string }>(
          `DELETE FROM session_players p USING sessions s
           WHERE s.key = $1 AND p.account_id = s.account_id AND p.session_id = s.id AND p.player = ANY($2::text[])
           RETURNING p.player`,
          [key, [...players]],
        )
      ).map((r) => r.player),
    liveSessionsOfPlayers: async (accountId, players) =>
      new Map(
        (
          await sql.rows<{ player: string; key: string }>(
            `SELECT p.player, s.key FROM session_players p JOIN sessions s ON s.account_id = p.account_id AND s.id = p.session_id
             WHERE p.account_id = $1 AND s.ended IS NULL AND p.player = ANY($2::text[])`,
            [accountId, [...players]],
          )
        ).map((r) => [r.player, r.key]),
      ),
  };
}

/** The listing's conditions, every value a parameter (the statement shapes stay few). */
function listWhere(filter: SessionFilter): { where: string[]; values: unknown[] } {
  const values: unknown[] = [];
  const param = (v: unknown) => `$${values.push(v)}`;
  const where = filter.all ? ['true'] : ['s.ended IS NULL'];
  if (filter.accountId !== undefined) where.push(`s.account_id = ${param(filter.accountId)}`);
  for (const field of ['location', 'image', 'tag', 'host', 'status'] as const) {
    if (filter[field] !== undefined) where.push(`s.${field} = ${param(filter[field])}`);
  }
  if (Object.keys(filter.labels).length > 0) where.push(`s.labels::jsonb @> ${param(JSON.stringify(filter.labels))}::jsonb`);
  if (Object.keys(filter.notLabels).length > 0) {
    where.push(`NOT EXISTS (SELECT 1 FROM jsonb_each_text(${param(JSON.stringify(filter.notLabels))}::jsonb) f WHERE s.labels::jsonb ->> f.key = f.value)`);
  }
  const playerCount = '(SELECT count(*) FROM session_players p WHERE p.account_id = s.account_id AND p.session_id = s.id)';
  if (filter.playersLessThan !== undefined) where.push(`${playerCount} < ${param(filter.playersLessThan)}`);
  if (filter.playersMoreThan !== undefined) where.push(`${playerCount} > ${param(filter.playersMoreThan)}`);
  if (filter.after) {
    // Newest first by (created, id, account); a position without an account sorts first among its ties.
    where.push(`(s.created, s.id, s.account_id) < (${param(filter.after.created)}, ${param(filter.after.id)}, ${param(filter.after.accountId ?? '')})`);
  }
  if (filter.until) {
    where.push(`(s.created, s.id, s.account_id) >= (${param(filter.until.created)}, ${param(filter.until.id)}, ${param(filter.until.accountId ?? '')})`);
  }
  return { where, values };
}
