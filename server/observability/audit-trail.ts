/**
 * The audit log, with every entry also written to the service log: the store keeps only each
 * account's newest entries (AUDIT_KEPT_PER_ACCOUNT), the log pipeline keeps them all. Entries
 * name tokens by id and carry names and scopes, never a token's value.
 */
import type { AuditLog } from '../domain/ports/audit.js';

export interface AuditLogLine {
  info(fields: Record<string, unknown>, message: string): void;
}

export function loggedAudit(audit: AuditLog, log: AuditLogLine): AuditLog {
  return {
    ...audit,
    async record(entry, keep) {
      await audit.record(entry, keep);
      log.info({ audit: entry }, 'audit');
    },
  };
}
