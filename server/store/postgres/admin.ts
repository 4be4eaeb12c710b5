/** PostgreSQL side of the admin panel: operators and panel sessions, the audit log, node locks (see ../admin-repository.ts). */
import type { AuditEntry, AuditLog } from '../../domain/ports/audit.js';
import type { NodeLocks } from '../../domain/ports/catalog.js';
import type { OperatorRecord, OperatorRepository, PanelSessionRecord } from '../../domain/ports/operators.js';
import { value, type PgDb, type Sql } from './sql.js';

export function createPgOperatorRepository({ sql, transaction }: PgDb): OperatorRepository {
  return {
    count: async () => (await value<number>(sql, 'SELECT count(*) FROM operators')) ?? 0,
    insert: async (o) => {
      await sql.run('INSERT INTO operators (id, email, password_hash, created) VALUES ($1, $2, $3, $4)', [o.id, o.email, o.passwordHash, o.created]);
    },
    findByEmail: async (email) =>
      (await sql.rows<OperatorRecord>('SELECT id, email, password_hash AS "passwordHash", created FROM operators WHERE email = $1', [email]))[0],
    setPasswordHash: (operatorId, passwordHash) =>
      transaction(async () => {
        await sql.run('UPDATE operators SET password_hash = $1 WHERE id = $2', [passwordHash, operatorId]);
        await sql.run('DELETE FROM admin_sessions WHERE operator_id = $1', [operatorId]);
      }),
    insertSession: async (idHash, s) => {
      await sql.run('INSERT INTO admin_sessions (id_hash, operator_id, csrf, created, expires) VALUES ($1, $2, $3, $4, $5)', [
        idHash,
        s.operatorId,
        s.csrf,
        s.created,
        s.expires,
      ]);
    },
    findSession: async (idHash) =>
      (
        await sql.rows<PanelSessionRecord>(
          `SELECT s.operator_id AS "operatorId", o.email, s.csrf, s.expires
           FROM admin_sessions s JOIN operators o ON o.id = s.operator_id WHERE s.id_hash = $1`,
          [idHash],
        )
      )[0],
    findSessionByCsrf: async (csrf) =>
      (
        await sql.rows<PanelSessionRecord & { idHash: Buffer }>(
          `SELECT s.id_hash AS "idHash", s.operator_id AS "operatorId", o.email, s.csrf, s.expires
           FROM admin_sessions s JOIN operators o ON o.id = s.operator_id WHERE s.csrf = $1`,
          [csrf],
        )
      )[0],
    deleteSession: async (idHash) => {
      await sql.run('DELETE FROM admin_sessions WHERE id_hash = $1', [idHash]);
    },
    deleteExpiredSessions: async (now) => {
      await sql.run('DELETE FROM admin_sessions WHERE expires <= $1', [now]);
    },
  };
}

export function createPgAuditLog({ sql, transaction }: PgDb): AuditLog {
  return {
    record: (e, keep) =>
      transaction(async () => {
        await sql.run('INSERT INTO audit_log (account_id, at, actor, action, token_id, details) VALUES ($1, $2, $3, $4, $5, $6)', [
          e.accountId,
          e.at,
          e.actor,
          e.action,
          e.tokenId,
          e.details,
        ]);
        // The first entry past `keep` and older go (see the SQLite repository).
        await sql.run(
          `DELETE FROM audit_log WHERE account_id = $1 AND id <= (
             SELECT id FROM audit_log WHERE account_id = $1 ORDER BY id DESC LIMIT 1 OFFSET $2)`,
          [e.accountId, keep],
        );
      }),
    list: (accountId, limit) =>
      sql.rows<AuditEntry>(
        `SELECT id, account_id AS "accountId", at, actor, action, token_id AS "tokenId", details
         FROM audit_log WHERE account_id = $1 ORDER BY id DESC LIMIT $2`,
        [accountId, limit],
      ),
  };
}

/** Read from the database each time: another instance may have set a lock or a drain (no cache to keep coherent). */
export function createPgNodeLocks(sql: Sql): NodeLocks {
  return {
    lockOf: async (nodeId) => {
      const locked = await value<number>(sql, 'SELECT locked FROM node_locks WHERE node_id = $1', [nodeId]);
      return locked === undefined ? undefined : locked === 1;
    },
    set: async (nodeId, locked, at) => {
      await sql.run(
        'INSERT INTO node_locks (node_id, locked, at) VALUES ($1, $2, $3) ON CONFLICT (node_id) DO UPDATE SET locked = excluded.locked, at = excluded.at',
        [nodeId, locked ? 1 : 0, at],
      );
    },
    drainOf: async (nodeId) => (await sql.rows('SELECT 1 FROM node_drains WHERE node_id = $1', [nodeId])).length > 0,
    setDrain: async (nodeId, draining, at) => {
      if (draining) await sql.run('INSERT INTO node_drains (node_id, at) VALUES ($1, $2) ON CONFLICT (node_id) DO NOTHING', [nodeId, at]);
      else await sql.run('DELETE FROM node_drains WHERE node_id = $1', [nodeId]);
    },
  };
}
