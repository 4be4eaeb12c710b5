/** SQLite side of the admin panel: operators and their panel sessions, the audit log, node locks. */
import type { AuditAction, AuditEntry, AuditLog } from '../domain/ports/audit.js';
import type { NodeLocks } from '../domain/ports/catalog.js';
import type { OperatorRecord, OperatorRepository, PanelSessionRecord } from '../domain/ports/operators.js';
import type { Db } from './sqlite.js';
import type { Sync } from './async.js';

export function createOperatorRepository(db: Db): Sync<OperatorRepository> {
  const count = db.prepare('SELECT count(*) FROM operators').pluck();
  const insert = db.prepare('INSERT INTO operators (id, email, password_hash, created) VALUES (@id, @email, @passwordHash, @created)');
  const byEmail = db.prepare('SELECT id, email, password_hash AS passwordHash, created FROM operators WHERE email = ?');
  const insertSession = db.prepare(
    'INSERT INTO admin_sessions (id_hash, operator_id, csrf, created, expires) VALUES (@idHash, @operatorId, @csrf, @created, @expires)',
  );
  const findSession = db.prepare(
    `SELECT s.operator_id AS operatorId, o.email, s.csrf, s.expires
     FROM admin_sessions s JOIN operators o ON o.id = s.operator_id WHERE s.id_hash = ?`,
  );
  const findSessionByCsrf = db.prepare(
    `SELECT s.id_hash AS idHash, s.operator_id AS operatorId, o.email, s.csrf, s.expires
     FROM admin_sessions s JOIN operators o ON o.id = s.operator_id WHERE s.csrf = ?`,
  );
  const deleteSession = db.prepare('DELETE FROM admin_sessions WHERE id_hash = ?');
  const setPasswordHash = db.prepare('UPDATE operators SET password_hash = ? WHERE id = ?');
  const deleteSessionsOf = db.prepare('DELETE FROM admin_sessions WHERE operator_id = ?');
  const deleteExpired = db.prepare('DELETE FROM admin_sessions WHERE expires <= ?');
  return {
    count: () => count.get() as number,
    insert: (operator) => {
      insert.run(operator);
    },
    findByEmail: (email) => byEmail.get(email) as OperatorRecord | undefined,
    setPasswordHash: db.transaction((operatorId: string, passwordHash: string) => {
      setPasswordHash.run(passwordHash, operatorId);
      deleteSessionsOf.run(operatorId);
    }),
    insertSession: (idHash, session) => {
      insertSession.run({ idHash, ...session });
    },
    findSession: (idHash) => findSession.get(idHash) as PanelSessionRecord | undefined,
    findSessionByCsrf: (csrf) => findSessionByCsrf.get(csrf) as (PanelSessionRecord & { idHash: Buffer }) | undefined,
    deleteSession: (idHash) => {
      deleteSession.run(idHash);
    },
    deleteExpiredSessions: (now) => {
      deleteExpired.run(now);
    },
  };
}

export function createAuditLog(db: Db): Sync<AuditLog> {
  const insert = db.prepare(
    'INSERT INTO audit_log (account_id, at, actor, action, token_id, details) VALUES (@accountId, @at, @actor, @action, @tokenId, @details)',
  );
  const list = db.prepare(
    `SELECT id, account_id AS accountId, at, actor, action, token_id AS tokenId, details
     FROM audit_log WHERE account_id = ? ORDER BY id DESC LIMIT ?`,
  );
  // The cut is the first entry past `keep` (audit_log_by_account walks to it); only it and older go.
  const trim = db.prepare(
    `DELETE FROM audit_log WHERE account_id = @accountId AND id <= (
       SELECT id FROM audit_log WHERE account_id = @accountId ORDER BY id DESC LIMIT 1 OFFSET @keep)`,
  );
  return {
    record: db.transaction((entry: Omit<AuditEntry, 'id'>, keep: number) => {
      insert.run(entry);
      trim.run({ accountId: entry.accountId, keep });
    }),
    list: (accountId, limit) =>
      list.all(accountId, limit) as { id: number; accountId: string; at: number; actor: string; action: AuditAction; tokenId: string | null; details: string }[],
  };
}

export function createNodeLocks(db: Db): Sync<NodeLocks> {
  const all = db.prepare('SELECT node_id AS nodeId, locked FROM node_locks');
  const set = db.prepare(
    'INSERT INTO node_locks (node_id, locked, at) VALUES (?, ?, ?) ON CONFLICT (node_id) DO UPDATE SET locked = excluded.locked, at = excluded.at',
  );
  // Read on every placement: cached, and refreshed by set() (this process is the only writer).
  let cache: Map<string, boolean> | undefined;
  const load = () => new Map((all.all() as { nodeId: string; locked: number }[]).map((r) => [r.nodeId, r.locked === 1]));
  const drains = db.prepare('SELECT node_id AS nodeId FROM node_drains');
  const drain = db.prepare('INSERT INTO node_drains (node_id, at) VALUES (?, ?) ON CONFLICT (node_id) DO NOTHING');
  const undrain = db.prepare('DELETE FROM node_drains WHERE node_id = ?');
  let drainCache: Set<string> | undefined;
  return {
    lockOf: (nodeId) => (cache ??= load()).get(nodeId),
    set: (nodeId, locked, at) => {
      set.run(nodeId, locked ? 1 : 0, at);
      cache = undefined;
    },
    drainOf: (nodeId) => (drainCache ??= new Set((drains.all() as { nodeId: string }[]).map((r) => r.nodeId))).has(nodeId),
    setDrain: (nodeId, draining, at) => {
      if (draining) drain.run(nodeId, at);
      else undrain.run(nodeId);
      drainCache = undefined;
    },
  };
}
