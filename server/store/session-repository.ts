import type { SessionChanges, SessionRecord, SessionRepository, StoredEvent, StoredSize } from '../domain/ports/sessions.js';
import { LiveSessions } from './live-sessions.js';
import type { Db } from './sqlite.js';
import type { Sync } from './async.js';
import { SESSION_COLUMN_OF, sessionFromRow, type SessionRow } from './rows.js';

/** Ended sessions purged per savepoint (a bound on the pages its in-memory sub-journal copies). */
export const PURGE_CHUNK = 1000;

/** Prepared statements kept for list() and update() (each holds its compiled program). */
export const STATEMENT_CACHE_SIZE = 64;

const SELECT = `
  SELECT s.*,
    (SELECT json_group_array(json_object('name', name, 'type', type, 'container', container, 'host', port))
       FROM (SELECT * FROM session_ports WHERE account_id = s.account_id AND session_id = s.id ORDER BY container, name)) AS ports_json,
    (SELECT json_group_array(player)
       FROM (SELECT player FROM session_players WHERE account_id = s.account_id AND session_id = s.id ORDER BY joined, player)) AS players_json
  FROM sessions s`;

/** Every live session, oldest first: the read model's load (an index range scan: migration 10). */
export const LIVE_SESSIONS = `${SELECT} WHERE s.ended IS NULL ORDER BY s.created, s.id, s.account_id`;

/** What the SQLite store wraps (see sqlite-store.ts, which adds the transactions). */
export type SqliteSessions = Sync<Omit<SessionRepository, 'transaction' | 'readsSettledAtEnd' | 'lockForPlacement' | 'lockForChange'>> & {
  /** Rebuild the read model from the database (after a rolled-back transaction). */
  reload(): void;
};

/**
 * A record as a read of its row returns it right after the insert: the columns the insert does not
 * write are null (it writes `runningSince`: a warm claim's session runs from its insert), no
 * players, and the ports as the read orders them (by container port, then name).
 */
function inserted(record: SessionRecord): SessionRecord {
  const ports = record.ports
    .map(({ name, type, container, host }) => ({ name, type, container, host }))
    .sort((a, b) => a.container - b.container || Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
  return { ...record, ports, pendingEndReason: null, ended: null, exitCode: null, endReason: null, players: [] };
}

export function createSessionRepository(db: Db): SqliteSessions {
  const exists = db.prepare('SELECT 1 FROM sessions WHERE account_id = ? AND id = ?').pluck();
  const insertSession = db.prepare(
    `INSERT INTO sessions (id, account_id, key, image, tag, location, node_id, host, created, status, labels, args, restart, expires, running_since)
     VALUES (@id, @accountId, @key, @image, @tag, @location, @nodeId, @host, @created, @status, @labels, @args, @restart, @expires, @runningSince)`,
  );
  // A session's ports in one statement, prepared once per number of ports (a tag has a few).
  const insertPorts: ReturnType<Db['prepare']>[] = [];
  const insertPortsOf = (count: number) =>
    (insertPorts[count] ??= db.prepare(
      `INSERT INTO session_ports (account_id, session_id, node_id, name, type, container, port) VALUES ${Array(count).fill('(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
    ));
  const byKey = db.prepare(`${SELECT} WHERE s.key = ?`);
  // The end of a list's scan window: a walk of the account's index, no row read.
  const positionOrder = 'ORDER BY created DESC, id DESC, account_id DESC LIMIT 1 OFFSET @offset';
  const firstPosition = db.prepare(`SELECT created, id, account_id FROM sessions WHERE account_id = @accountId ${positionOrder}`);
  const positionAfterOf = db.prepare(
    `SELECT created, id, account_id FROM sessions WHERE account_id = @accountId AND (created, id, account_id) < (@afterCreated, @afterId, @afterAccount) ${positionOrder}`,
  );
  const byOwner = db.prepare(`${SELECT} WHERE s.account_id = ? AND s.id = ?`);
  const everywhere = db.prepare(`${SELECT} WHERE s.id = ? ORDER BY s.account_id`);
  const live = db.prepare(LIVE_SESSIONS);
  // Children name their session by (account, id); the key finds that pair.
  const ofKey = '(SELECT account_id, id FROM sessions WHERE key = @key)';
  const join = db.prepare(
    `INSERT OR IGNORE INTO session_players (account_id, session_id, player, joined) SELECT account_id, id, @player, @at FROM sessions WHERE key = @key`,
  );
  const leave = db.prepare(`DELETE FROM session_players WHERE (account_id, session_id) = ${ofKey} AND player = @player`);
  const sessionOfPlayer = db.prepare(
    `SELECT s.key FROM session_players p JOIN sessions s ON s.account_id = p.account_id AND s.id = p.session_id
     WHERE p.account_id = ? AND s.ended IS NULL AND p.player = ?`,
  ).pluck();

  const appendEvent = db.prepare(
    'INSERT INTO session_events (account_id, session_id, status, previous, at, session, bytes) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const eventsAfter = db.prepare(
    'SELECT id, status, previous, at, session FROM session_events WHERE account_id = ? AND id > ? ORDER BY id LIMIT ?',
  );
  // Just after the highest pruned (event_log_pruned, migration 14), while any event is kept.
  const oldestEvent = db.prepare('SELECT CASE WHEN EXISTS (SELECT 1 FROM session_events) THEN (SELECT id + 1 FROM event_log_pruned) END').pluck();
  // AUTOINCREMENT keeps the highest id ever issued in sqlite_sequence, pruning or not.
  const latestEvent = db.prepare("SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'session_events'), 0)").pluck();
  const PRUNED = `(id <= (SELECT max(id) FROM session_events) - @count OR at < @since
       OR id <= coalesce((SELECT id FROM (SELECT id, sum(bytes) OVER (ORDER BY id DESC) AS newer FROM session_events) WHERE newer > @bytes ORDER BY id DESC LIMIT 1), 0))
       AND id <= coalesce((SELECT value FROM json_each(@floors) WHERE key = session_events.account_id), id)`;
  const markPruned = db.prepare(`UPDATE event_log_pruned SET id = max(id, coalesce((SELECT max(id) FROM session_events WHERE ${PRUNED}), 0))`);
  const pruneEvents = db.prepare(`DELETE FROM session_events WHERE ${PRUNED}`);
  const holdable = db.prepare(
    `SELECT account_id, min(CASE WHEN n <= @count AND newer <= @bytes THEN id END) AS oldest, max(id) AS newest
       FROM (SELECT account_id, id, row_number() OVER w AS n, sum(bytes) OVER w AS newer FROM session_events
             WINDOW w AS (PARTITION BY account_id ORDER BY id DESC)) AS ranked
       GROUP BY account_id`,
  );

  // Ended sessions are purged PURGE_CHUNK at a time, each chunk its own savepoint: the connection
  // keeps temp data in memory (group-commit.ts), and a savepoint's sub-journal holds a copy of
  // every page it changes, so one purge of a week's sessions would hold them all in RAM.
  const endedChunk = db
    .prepare('SELECT json_group_array(json_array(account_id, id)) FROM (SELECT account_id, id FROM sessions WHERE ended IS NOT NULL AND ended < ? LIMIT ?)')
    .pluck();
  const inChunk = '(SELECT value ->> 0, value ->> 1 FROM json_each(@chunk))';
  const purgePlayers = db.prepare(`DELETE FROM session_players WHERE (account_id, session_id) IN ${inChunk}`);
  const purgePorts = db.prepare(`DELETE FROM session_ports WHERE (account_id, session_id) IN ${inChunk}`);
  const purgeSessions = db.prepare(`DELETE FROM sessions WHERE (account_id, id) IN ${inChunk}`);
  // What the chunk holds of each account's storedSize, read (summed per account) before it goes.
  const chunkSizes = db.prepare(
    `SELECT account_id AS account, sum(bytes) AS bytes, sum(players) AS players FROM (
       SELECT account_id, length(CAST(labels AS BLOB)) + length(CAST(args AS BLOB)) AS bytes, 0 AS players FROM sessions WHERE (account_id, id) IN ${inChunk}
       UNION ALL
       SELECT account_id, length(CAST(player AS BLOB)), 1 FROM session_players WHERE (account_id, session_id) IN ${inChunk}
     ) GROUP BY account_id`,
  );
  const purgeChunk = db.transaction((chunk: string, freed: Map<string, StoredSize>) => {
    for (const { account, bytes, players } of chunkSizes.all({ chunk }) as ({ account: string } & StoredSize)[]) {
      const before = freed.get(account);
      freed.set(account, { bytes: (before?.bytes ?? 0) + bytes, players: (before?.players ?? 0) + players });
    }
    purgePlayers.run({ chunk });
    purgePorts.run({ chunk });
    return purgeSessions.run({ chunk }).changes;
  });
  // Labels and args as stored (JSON text), and the players' ids.
  const storedSize = db.prepare(
    `SELECT (SELECT coalesce(sum(length(CAST(labels AS BLOB)) + length(CAST(args AS BLOB))), 0) FROM sessions WHERE account_id = @account)
          + (SELECT coalesce(sum(length(CAST(player AS BLOB))), 0) FROM session_players WHERE account_id = @account) AS bytes,
       (SELECT count(*) FROM session_players WHERE account_id = @account) AS players`,
  );

  // list() and update() build their SQL from the filter or the changed columns: each shape is
  // prepared once and kept among the most recently used few. Values (labels, limit) are always
  // parameters, so the number of shapes is small and fixed whatever callers send.
  const statements = new Map<string, ReturnType<Db['prepare']>>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (statement) statements.delete(sql);
    else statement = db.prepare(sql);
    statements.set(sql, statement);
    if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
    return statement;
  };

  let liveSessions = new LiveSessions((live.all() as SessionRow[]).map(sessionFromRow));
  /** Re-read a live session's row into the read model (after a write to it), or drop it once ended. */
  const refresh = (key: string) => {
    const row = byKey.get(key) as SessionRow | undefined;
    if (row && row.ended === null) liveSessions.put(sessionFromRow(row));
    else liveSessions.delete(key);
  };
  /**
   * The read model after a write whose result is known without reading it back (an insert, an
   * update of columns): what a read of the row returns, built in memory. A live session stays in
   * the model, an ended one leaves it.
   */
  const remember = (record: SessionRecord) => {
    if (record.ended === null) liveSessions.put(record);
    else liveSessions.delete(record.key);
  };

  return {
    reload: () => {
      liveSessions = new LiveSessions((live.all() as SessionRow[]).map(sessionFromRow));
    },
    appendEvent: (session, previous, at) => {
      const json = JSON.stringify(session);
      return Number(appendEvent.run(session.accountId, session.id, session.status, previous, at, json, Buffer.byteLength(json)).lastInsertRowid);
    },
    eventsAfter: (accountId, afterId, limit) =>
      (eventsAfter.all(accountId, afterId, limit) as (Omit<StoredEvent, 'session'> & { session: string })[]).map((row) => ({
        ...row,
        session: JSON.parse(row.session) as SessionRecord,
      })),
    oldestEventId: () => (oldestEvent.get() as number | null) ?? undefined,
    latestEventId: () => latestEvent.get() as number,
    storedSize: (accountId) => storedSize.get({ account: accountId }) as StoredSize,
    purgeEnded: (before) => {
      const freed = new Map<string, StoredSize>();
      for (let sessions = 0; ; ) {
        const n = purgeChunk(endedChunk.get(before, PURGE_CHUNK) as string, freed);
        sessions += n;
        if (n < PURGE_CHUNK) return { sessions, freed };
      }
    },
    pruneEvents: ({ count, sinceMs, bytes, floors }) => {
      const window = { count, since: sinceMs, bytes: bytes ?? Number.MAX_SAFE_INTEGER, floors: JSON.stringify(Object.fromEntries(floors ?? [])) };
      // Together: a mark past events still kept would refuse their replays.
      db.transaction(() => {
        markPruned.run(window);
        pruneEvents.run(window);
      })();
    },
    oldestHoldable: ({ count, bytes }) => {
      const rows = holdable.all({ count, bytes }) as { account_id: string; oldest: number | null; newest: number }[];
      return new Map(rows.map((row) => [row.account_id, row.oldest ?? row.newest + 1]));
    },
    launchedAt: (accountId) => liveSessions.ofAccount(accountId).map((s) => s.created),
    launchSummary: (accountId) => liveSessions.launchSummary(accountId),
    accountsWithLiveSessions: () => [
      ...new Set([...liveSessions.values()].map((s) => s.accountId)),
    ],
    exists: (accountId, id) => liveSessions.owned(accountId, id) !== undefined || exists.get(accountId, id) !== undefined,
    liveSessionsOn: (nodeId) => liveSessions.countOn(nodeId),
    liveCountsByNode: () => {
      const counts = new Map<string, number>();
      for (const s of liveSessions.values()) counts.set(s.nodeId, (counts.get(s.nodeId) ?? 0) + 1);
      return counts;
    },
    // A view, not a copy: placement asks it about ports inside the transaction that places.
    portsInUse: (host) => liveSessions.portsOn(host),
    insert(record) {
      insertSession.run({
        ...record,
        labels: JSON.stringify(record.labels),
        args: JSON.stringify(record.args),
        restart: record.restart ? 1 : 0,
      });
      if (record.ports.length > 0) {
        insertPortsOf(record.ports.length).run(
          record.ports.flatMap((port) => [record.accountId, record.id, record.nodeId, port.name, port.type, port.container, port.host]),
        );
      }
      remember(inserted(record));
    },
    find: (key) => {
      const cached = liveSessions.get(key);
      if (cached) return cached;
      const row = byKey.get(key) as SessionRow | undefined;
      return row && sessionFromRow(row);
    },
    findOwned: (accountId, id) => {
      const cached = liveSessions.owned(accountId, id);
      if (cached) return cached;
      const row = byOwner.get(accountId, id) as SessionRow | undefined;
      return row && sessionFromRow(row);
    },
    findEverywhere: (id) => (everywhere.all(id) as SessionRow[]).map(sessionFromRow),
    list(filter) {
      // Live sessions come from the read model; the database answers for ended ones too.
      if (!filter.all) return liveSessions.list(filter);
      const where: string[] = filter.accountId === undefined ? ['1 = 1'] : ['s.account_id = @accountId'];
      const params: Record<string, unknown> = filter.accountId === undefined ? {} : { accountId: filter.accountId };
      for (const field of ['location', 'image', 'tag', 'host', 'status'] as const) {
        if (filter[field] !== undefined) {
          where.push(`s.${field} = @${field}`);
          params[field] = filter[field];
        }
      }
      // Label filters are one JSON parameter each, however many labels they name.
      if (Object.keys(filter.labels).length > 0) {
        where.push(
          'NOT EXISTS (SELECT 1 FROM json_each(@labels) f WHERE NOT EXISTS (SELECT 1 FROM json_each(s.labels) l WHERE l.key = f.key AND l.value = f.value))',
        );
        params.labels = JSON.stringify(filter.labels);
      }
      if (Object.keys(filter.notLabels).length > 0) {
        where.push('NOT EXISTS (SELECT 1 FROM json_each(@notLabels) f JOIN json_each(s.labels) l ON l.key = f.key AND l.value = f.value)');
        params.notLabels = JSON.stringify(filter.notLabels);
      }
      const playerCount = '(SELECT count(*) FROM session_players WHERE account_id = s.account_id AND session_id = s.id)';
      if (filter.playersLessThan !== undefined) {
        where.push(`${playerCount} < @lt`);
        params.lt = filter.playersLessThan;
      }
      if (filter.playersMoreThan !== undefined) {
        where.push(`${playerCount} > @gt`);
        params.gt = filter.playersMoreThan;
      }
      if (filter.after) {
        // Newest first by (created, id, account); a position without an account sorts first among its ties.
        where.push('(s.created, s.id, s.account_id) < (@afterCreated, @afterId, @afterAccount)');
        Object.assign(params, { afterCreated: filter.after.created, afterId: filter.after.id, afterAccount: filter.after.accountId ?? '' });
      }
      if (filter.until) {
        where.push('(s.created, s.id, s.account_id) >= (@untilCreated, @untilId, @untilAccount)');
        Object.assign(params, { untilCreated: filter.until.created, untilId: filter.until.id, untilAccount: filter.until.accountId ?? '' });
      }
      // LIMIT -1: no limit.
      params.limit = filter.limit ?? -1;
      const sql = `${SELECT} WHERE ${where.join(' AND ')} ORDER BY s.created DESC, s.id DESC, s.account_id DESC LIMIT @limit`;
      return (prepared(sql).all(params) as SessionRow[]).map(sessionFromRow);
    },
    positionAfter(accountId, after, count) {
      const row = (after ? positionAfterOf : firstPosition).get({
        accountId,
        offset: count - 1,
        ...(after ? { afterCreated: after.created, afterId: after.id, afterAccount: after.accountId ?? '' } : {}),
      }) as { created: number; id: string; account_id: string } | undefined;
      return row && { created: row.created, id: row.id, accountId: row.account_id };
    },
    liveKeysOn: (nodeId) => [...liveSessions.values()].filter((session) => session.nodeId === nodeId).map((session) => session.key),
    live: () => liveSessions.list({ accountId: undefined, all: false, labels: {}, notLabels: {} }).reverse(),
    update(key, changes) {
      const entries = Object.entries(changes) as [keyof SessionChanges, unknown][];
      if (entries.length === 0) return;
      const set = entries.map(([column]) => `${SESSION_COLUMN_OF[column]} = @${column}`).join(', ');
      // Setting `ended` also releases the session's ports (a trigger: migration 11).
      prepared(`UPDATE sessions SET ${set} WHERE key = @key`).run({ ...changes, key });
      // A live session's new state is the old one with the changed columns; others are not in the model.
      const cached = liveSessions.get(key);
      if (cached) remember({ ...cached, ...changes });
    },
    join(key, players, at) {
      const joined = db.transaction(() => players.filter((player) => join.run({ key, player, at }).changes > 0))();
      refresh(key);
      return joined;
    },
    leave(key, players) {
      const left = db.transaction(() => players.filter((player) => leave.run({ key, player }).changes > 0))();
      refresh(key);
      return left;
    },
    liveSessionsOfPlayers(accountId, players) {
      const found = new Map<string, string>();
      for (const player of players) {
        const sessionId = sessionOfPlayer.get(accountId, player) as string | undefined;
        if (sessionId) found.set(player, sessionId);
      }
      return found;
    },
  };
}
